import type { IncomingMessage } from "node:http";

/** The outcome of an {@link Authenticate} hook. */
export type AuthenticateResult =
  | {
      readonly ok: true;
      /** Whatever the hook learnt (a user, scopes); handed to `onSession` and to frame listeners. */
      readonly info?: unknown;
      /**
       * Who the caller is, for binding sessions to their creator (MCP 2025-06-18, security: session
       * ids should be bound to user information). Default: derived from `info` (its value when a
       * string, otherwise its JSON with sorted keys), so two callers with different `info` never
       * share a session. Set it when `info` carries per-request fields.
       */
      readonly identity?: string;
    }
  | {
      readonly ok: false;
      /** 401 (default: missing or invalid credentials) or 403 (insufficient scope). */
      readonly status?: 401 | 403;
      /** The `WWW-Authenticate` challenge, e.g. `Bearer resource_metadata="…"`. */
      readonly wwwAuthenticate?: string;
      /** The error message in the JSON-RPC error body. */
      readonly message?: string;
    };

/**
 * Decides whether a request may proceed; runs before any session lookup or body read. It gets the
 * runtime's request: node:http's `IncomingMessage`, or a web `Request` with the web handler.
 */
export type Authenticate<Request = IncomingMessage> = (
  request: Request,
) => AuthenticateResult | Promise<AuthenticateResult>;

/** Why the requests of a batch are not admitted: the answer to the whole POST that carried it. */
export interface BatchRefusal {
  readonly status: number;
  /** The error message in the JSON-RPC error body. */
  readonly message: string;
  /** The JSON-RPC code of the error body (default -32000). */
  readonly code?: number;
  /** Headers of the answer, such as `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Runs for a POST that carries a batch, after the batch passed `maxBatchSize`, with the number of
 * requests in it (notifications and responses not counted); a refusal answers the whole POST. A
 * gateway charges a rate limit per request with it, so a batch costs what its requests would.
 */
export type AdmitBatch<Request = IncomingMessage> = (
  request: Request,
  requests: number,
) => BatchRefusal | undefined | Promise<BatchRefusal | undefined>;
