import type { Clock } from "./clock.js";

/** The fetch function a client transport uses (the global `fetch` by default). */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** How a client reconnects a broken SSE stream. */
export interface ReconnectOptions {
  /** First delay when the server gave no `retry:` advice. Default 1000 ms. */
  readonly initialDelayMs?: number;
  /** Upper bound of the delay. Default 30 000 ms. */
  readonly maxDelayMs?: number;
  /** Growth of the delay per failed attempt. Default 1.5. */
  readonly growFactor?: number;
  /** Attempts in a row before giving up on a stream. Default 5. */
  readonly maxRetries?: number;
}

/** Options of {@link StreamableHttpClientTransport}. */
export interface StreamableHttpClientTransportOptions {
  /** The MCP endpoint URL. */
  readonly url: string | URL;
  /** The fetch to use. Default: the global `fetch`. */
  readonly fetch?: FetchLike;
  /** Headers sent with every request (for example a static `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called before every request; the headers it returns are added (for example a fresh token). */
  readonly authHeaders?: () =>
    | Readonly<Record<string, string>>
    | Promise<Readonly<Record<string, string>>>;
  /** A session id to resume with (otherwise learnt from the initialize answer). */
  readonly sessionId?: string;
  /** The negotiated revision (otherwise learnt from the initialize result passing through). */
  readonly protocolVersion?: string;
  /**
   * Open the standalone GET stream once `notifications/initialized` was accepted (default true). A
   * server answering 405 simply has none.
   */
  readonly standaloneStream?: boolean;
  /** Reconnection of broken SSE streams (with `Last-Event-ID`). */
  readonly reconnect?: ReconnectOptions;
  /** Timers for reconnection delays. Default: the system clock. */
  readonly clock?: Clock;
  /** Most bytes of one response body read whole (a JSON answer, an error body). Default 32 MiB. */
  readonly maxResponseBodyBytes?: number;
  /** Most bytes of one SSE event; a larger one fails its stream, which is not resumed. Default 16 MiB. */
  readonly maxEventBytes?: number;
  /**
   * Told when a modern `tools/list` answer carries a tool with invalid `x-mcp-header` annotations,
   * which the transport leaves out of the list (MCP 2026-07-28). Default: `console.warn`.
   */
  readonly onWarning?: (text: string) => void;
}

/** The delay before reconnection attempt `attempt` (0-based): the server's `retry:` advice wins. */
export function reconnectDelay(
  options: ReconnectOptions,
  attempt: number,
  retryAdviceMs: number | undefined,
): number {
  if (retryAdviceMs !== undefined) return retryAdviceMs;
  const initial = options.initialDelayMs ?? 1000;
  const grown = initial * (options.growFactor ?? 1.5) ** attempt;
  return Math.min(grown, options.maxDelayMs ?? 30_000);
}
