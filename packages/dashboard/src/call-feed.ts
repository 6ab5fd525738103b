import { randomBytes } from "node:crypto";
import type { EventSink, TelemetryEvent } from "@patchbay/telemetry";

/** One client call as the live feed shows it. */
export interface DashboardCall {
  /** When it ended, ISO 8601. */
  readonly time: string;
  readonly method: string;
  /** The exposed tool name of a `tools/call`. */
  readonly tool?: string;
  /**
   * The backend the router forwarded it to (`data.backend` of the client's event); absent when no
   * backend took it: an unknown tool, or one the router answers itself.
   */
  readonly backend?: string;
  /** True for a tool the router serves itself (`gateway_status`, `get_events`; the dashboard adds it). */
  readonly builtIn?: true;
  /** The router session it came on (the dashboard reads the caller from it, then drops it). */
  readonly session?: string;
  /**
   * Who called, as admission saw it: a static token's name, an OAuth principal
   * (`<issuer>#<subject>`) or `anonymous`, cut to a bounded length (the dashboard adds it).
   */
  readonly client?: string;
  /** `success`, `error`, `tool_error`, `timeout` or `cancelled`. */
  readonly outcome: string;
  /** The JSON-RPC error code of an `error`. */
  readonly code?: number;
  readonly durationMs: number;
  readonly traceId: string;
  /** The replica that served it, in a cluster (the dashboard adds it). */
  readonly replica?: string;
}

/**
 * Calls over the last minute, and how many ended badly, by kind: protocol and transport failures
 * (a JSON-RPC error or a timeout), cancellations, and tool results flagged `isError` (the tool
 * answered; it is not a failure of the proxy or the backend).
 */
export interface CallRates {
  readonly callsPerMinute: number;
  /** JSON-RPC errors and timeouts. */
  readonly errorsPerMinute: number;
  readonly cancelledPerMinute: number;
  /** Tool results with `isError: true`. */
  readonly toolErrorsPerMinute: number;
}

/** Turns telemetry events into the feed of client calls, keeps the latest and counts rates. */
export interface CallFeed {
  /** Hand this to the telemetry's sinks. */
  readonly sink: EventSink;
  /**
   * A trace id left out of the feed and the rates: the dashboard's own requests (reading the
   * catalogue) carry it.
   */
  readonly internalTraceId: string;
  /** The latest calls, oldest first (at most `historySize`). */
  recent(): DashboardCall[];
  rates(): CallRates;
  /** Calls answered since the feed started (the dashboard's own left out). */
  served(): number;
  /** Called with each batch of new calls; returns the unsubscribe function. */
  subscribe(listener: (calls: readonly DashboardCall[]) => void): () => void;
}

/** Options of {@link createCallFeed}. */
export interface CallFeedOptions {
  /** Calls kept for a page that connects later. Default 200. */
  readonly historySize?: number;
  /** Calls remembered for the rates (within the last minute). Default 100,000. */
  readonly maxRateSamples?: number;
  /** The clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
}

const closingTypes = new Set([
  "request.completed",
  "tool.called",
  "request.timeout",
  "request.cancelled",
]);
const minuteMs = 60_000;

/** The call an event closes, or `undefined` for events that are not a client's request ending. */
export function callOfEvent(event: TelemetryEvent): DashboardCall | undefined {
  // Client requests arrive at the router's client side: `incoming`, with no backend label.
  if (!closingTypes.has(event.event_type) || event.data.direction !== "incoming") return undefined;
  if (event.backend !== undefined || event.method === undefined) return undefined;
  const error = event.data.error as { code?: unknown } | undefined;
  const name = event.tool;
  const { session, backend } = event.data;
  return {
    time: event.timestamp,
    method: event.method,
    ...(name === undefined ? {} : { tool: name }),
    ...(typeof backend === "string" ? { backend } : {}),
    outcome: typeof event.data.outcome === "string" ? event.data.outcome : event.status,
    ...(typeof error?.code === "number" ? { code: error.code } : {}),
    durationMs: Math.round((event.duration_ms ?? 0) * 10) / 10,
    traceId: event.trace_id,
    ...(typeof session === "string" ? { session } : {}),
  };
}

type Kind = "ok" | "error" | "cancelled" | "toolError";

function kindOf(outcome: string): Kind {
  if (outcome === "success") return "ok";
  if (outcome === "tool_error") return "toolError";
  if (outcome === "cancelled") return "cancelled";
  return "error";
}

/** Creates the feed; add `feed.sink` to the telemetry that records the router's events. */
export function createCallFeed(options: CallFeedOptions = {}): CallFeed {
  const historySize = options.historySize ?? 200;
  const maxRateSamples = options.maxRateSamples ?? 100_000;
  const now = options.now ?? Date.now;
  const internalTraceId = randomBytes(16).toString("hex");
  const history: DashboardCall[] = [];
  // Times of recent calls and how each ended, oldest first.
  const samples: { at: number; kind: Kind }[] = [];
  const listeners = new Set<(calls: readonly DashboardCall[]) => void>();
  let served = 0;

  function prune(at: number): void {
    let drop = 0;
    while (drop < samples.length && (samples[drop] as { at: number }).at <= at - minuteMs)
      drop += 1;
    if (samples.length - drop > maxRateSamples) drop = samples.length - maxRateSamples;
    if (drop > 0) samples.splice(0, drop);
  }

  const sink: EventSink = {
    async write(events) {
      const calls: DashboardCall[] = [];
      for (const event of events) {
        if (event.trace_id === internalTraceId) continue;
        const call = callOfEvent(event);
        if (call !== undefined) calls.push(call);
      }
      if (calls.length === 0) return;
      served += calls.length;
      const at = now();
      for (const call of calls) samples.push({ at, kind: kindOf(call.outcome) });
      prune(at);
      history.push(...calls);
      if (history.length > historySize) history.splice(0, history.length - historySize);
      for (const listener of listeners) listener(calls);
    },
  };

  return {
    sink,
    internalTraceId,
    recent: () => [...history],
    rates() {
      prune(now());
      const counts = { ok: 0, error: 0, cancelled: 0, toolError: 0 };
      for (const sample of samples) counts[sample.kind] += 1;
      return {
        callsPerMinute: samples.length,
        errorsPerMinute: counts.error,
        cancelledPerMinute: counts.cancelled,
        toolErrorsPerMinute: counts.toolError,
      };
    },
    served: () => served,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
