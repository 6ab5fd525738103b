import { randomBytes } from "node:crypto";
import {
  builtEvent,
  type EventSink,
  isLazyEvent,
  type LazyEvent,
  requestEndOf,
  type TelemetryEvent,
} from "@patchbay/telemetry";

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

/**
 * What the feed knows of a call before its view is built: enough to count it and to mark its
 * session active. Not shown: the session id is the router's, and the page reads the outcome from
 * the built call.
 */
export interface CallSummary {
  /** The router session it came on. */
  readonly session: string | undefined;
  /** `success`, `error`, `tool_error`, `timeout` or `cancelled`. */
  readonly outcome: string;
}

/** New calls as {@link CallFeed.watch} hands them: summaries now, the calls when read. */
export interface CallBatch {
  /** One per call, oldest first. */
  readonly summaries: readonly CallSummary[];
  /** The calls, built (bounded and redacted) on the first read and kept for the next. */
  calls(): readonly DashboardCall[];
}

/**
 * Turns telemetry events into the feed of client calls, keeps the latest and counts rates. A call's
 * view is built (its event bounded and redacted) only when something reads it: `recent()`, a
 * `subscribe` listener, or a `watch` listener's `calls()`.
 */
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
  /** Called with each batch of new calls, built; returns the unsubscribe function. */
  subscribe(listener: (calls: readonly DashboardCall[]) => void): () => void;
  /**
   * Called with each batch of new calls, unbuilt (see {@link CallBatch}); returns the unsubscribe
   * function. Costs no build for a listener that reads only the summaries.
   */
  watch(listener: (batch: CallBatch) => void): () => void;
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

/**
 * A call kept by the feed: its summary, and what its view is built from until it is (the unbuilt
 * event holds only its request tracker, whose params and catalogue check are already let go, and
 * which holds no error message: a failed call is built at once).
 */
interface KeptCall extends CallSummary {
  source: TelemetryEvent | LazyEvent | undefined;
  call: DashboardCall | undefined;
}

/** The call an event closes, kept unbuilt when it can be counted without building it. */
function keptCallOf(
  event: TelemetryEvent | LazyEvent,
  internalTraceId: string,
): KeptCall | undefined {
  const end = requestEndOf(event);
  if (end === undefined) {
    // Another type (a request's opening event) is not a call: left unbuilt.
    if (isLazyEvent(event) && !closingTypes.has(event.eventType)) return undefined;
    // Built already, or not a tracker's: read from the event (see `callOfEvent`).
    const built = builtEvent(event);
    if (built.trace_id === internalTraceId) return undefined;
    const call = callOfEvent(built);
    if (call === undefined) return undefined;
    return { session: call.session, outcome: call.outcome, source: undefined, call };
  }
  // The same test as `callOfEvent`'s (a tracker's events always have a method).
  if (end.direction !== "incoming" || end.hasBackend || end.traceId === internalTraceId)
    return undefined;
  const kept: KeptCall = {
    session: end.session,
    outcome: end.outcome,
    source: event,
    call: undefined,
  };
  // A failure's error message comes from a peer and is bounded only when built: built now, so an
  // unbuilt call the feed keeps holds bounded fields only (a success, or `isError`'s fixed message).
  if (end.outcome !== "success" && end.outcome !== "tool_error") viewOf(kept);
  return kept;
}

/** The call's view, built on first need; the event it came from is then let go. */
function viewOf(kept: KeptCall): DashboardCall | undefined {
  if (kept.source !== undefined) {
    kept.call = callOfEvent(builtEvent(kept.source));
    kept.source = undefined;
  }
  return kept.call;
}

function viewsOf(kept: readonly KeptCall[]): DashboardCall[] {
  const calls: DashboardCall[] = [];
  for (const one of kept) {
    const call = viewOf(one);
    if (call !== undefined) calls.push(call);
  }
  return calls;
}

/** Creates the feed; add `feed.sink` to the telemetry that records the router's events. */
export function createCallFeed(options: CallFeedOptions = {}): CallFeed {
  const historySize = options.historySize ?? 200;
  const maxRateSamples = options.maxRateSamples ?? 100_000;
  const now = options.now ?? Date.now;
  const internalTraceId = randomBytes(16).toString("hex");
  const history: KeptCall[] = [];
  // Times of recent calls and how each ended, oldest first (sorted by kind when the rates are read),
  // from `first` on: those before it are dropped, their slots freed once they are half the array
  // (one move per sample, where removing them from the front at each batch moved every sample kept).
  const samples: { at: number; outcome: string }[] = [];
  let first = 0;
  const listeners = new Set<(calls: readonly DashboardCall[]) => void>();
  const watchers = new Set<(batch: CallBatch) => void>();
  let served = 0;

  function prune(at: number): void {
    let kept = first;
    while (kept < samples.length && (samples[kept] as { at: number }).at <= at - minuteMs)
      kept += 1;
    if (samples.length - kept > maxRateSamples) kept = samples.length - maxRateSamples;
    first = kept;
    if (first > 0 && first * 2 >= samples.length) {
      samples.splice(0, first);
      first = 0;
    }
  }

  async function add(events: readonly (TelemetryEvent | LazyEvent)[]): Promise<void> {
    const kept: KeptCall[] = [];
    for (const event of events) {
      const call = keptCallOf(event, internalTraceId);
      if (call !== undefined) kept.push(call);
    }
    if (kept.length === 0) return;
    served += kept.length;
    const at = now();
    for (const call of kept) samples.push({ at, outcome: call.outcome });
    prune(at);
    history.push(...kept);
    if (history.length > historySize) history.splice(0, history.length - historySize);
    if (listeners.size > 0) {
      const calls = viewsOf(kept);
      for (const listener of listeners) listener(calls);
    }
    if (watchers.size === 0) return;
    let calls: DashboardCall[] | undefined;
    const batch: CallBatch = { summaries: kept, calls: () => (calls ??= viewsOf(kept)) };
    for (const watcher of watchers) watcher(batch);
  }

  const sink: EventSink = {
    write: add,
    // Events recorded lazily stay unbuilt until a call's view is read.
    writeUnbuilt: add,
  };

  return {
    sink,
    internalTraceId,
    recent: () => viewsOf(history),
    rates() {
      prune(now());
      const counts = { ok: 0, error: 0, cancelled: 0, toolError: 0 };
      for (let index = first; index < samples.length; index += 1) {
        counts[kindOf((samples[index] as { outcome: string }).outcome)] += 1;
      }
      return {
        callsPerMinute: samples.length - first,
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
    watch(watcher) {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
  };
}
