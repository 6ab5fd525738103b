import { copyRecord } from "./copy-record.js";
import {
  formatTraceparent,
  parseTraceparent,
  parseTracestate,
  TRACE_FLAG_SAMPLED,
  type TraceContext,
  truncateTracestate,
} from "./trace-context.js";
import type { IdGenerator } from "./trace-ids.js";

/** The trace of one request as seen by this hop: its own span and, when given, the caller's. */
export interface RequestTrace extends TraceContext {
  /** The caller's span id, when the request arrived with a valid `traceparent`. */
  readonly parentSpanId?: string;
}

/** Where {@link handOffTrace} leaves a trace: a symbol key, which JSON never writes. */
const handedOffTrace = Symbol("patchbay.handedOffTrace");
/** Where it leaves the trace of params handed off with `owned` (the next hop may write into them). */
const handedOffOwnedTrace = Symbol("patchbay.handedOffOwnedTrace");

/** Options of {@link handOffTrace}. */
export interface HandOffOptions {
  /**
   * The params are a copy made for this one send, that nothing else reads: the instrumented
   * transport that sends them writes its `_meta.traceparent` into them instead of copying them
   * (and the message). Default false.
   */
  readonly owned?: boolean;
}

/**
 * Marks `params` (in place, under a symbol key that `JSON.stringify` leaves out and copies by
 * spread or `Object.assign` keep) as sent on behalf of `trace`: `readTraceContext`, and so the
 * tracker of an instrumented transport or connection that sends them on, reads it as the parent
 * and writes its own `traceparent`. Cheaper than `injectTraceContext` (no copy, no formatting and
 * parsing) when the next hop is instrumented; params that cannot take a key get
 * `injectTraceContext` instead.
 */
export function handOffTrace<P extends object>(
  params: P,
  trace: TraceContext,
  options?: HandOffOptions,
): P {
  if (Array.isArray(params) || !Object.isExtensible(params))
    return injectTraceContext(params, trace);
  const key = options?.owned === true ? handedOffOwnedTrace : handedOffTrace;
  (params as { [key]?: TraceContext })[key] = trace;
  return params;
}

/** True when `params` were handed off with `owned` (see {@link HandOffOptions}). */
export function isOwnedHandOff(params: unknown): boolean {
  return (
    params !== null &&
    typeof params === "object" &&
    Object.hasOwn(params, handedOffOwnedTrace) &&
    Object.isExtensible(params)
  );
}

/**
 * Reads the W3C trace context from `params._meta.traceparent` / `tracestate` of an MCP request
 * (or the trace {@link handOffTrace} left on them, first).
 * Returns `undefined` when absent or malformed; an invalid `tracestate` is dropped on its own.
 */
export function readTraceContext(params: unknown): TraceContext | undefined {
  if (params !== null && typeof params === "object") {
    const marked = params as {
      [handedOffTrace]?: TraceContext;
      [handedOffOwnedTrace]?: TraceContext;
    };
    const handed = marked[handedOffOwnedTrace] ?? marked[handedOffTrace];
    if (handed !== undefined) return handed;
  }
  // `_meta` read inline: most requests carry none, and every one asks.
  if (params === null || typeof params !== "object" || Array.isArray(params)) return undefined;
  const meta = (params as { _meta?: unknown })._meta as { traceparent?: unknown } | undefined;
  if (meta === null || typeof meta !== "object" || typeof meta.traceparent !== "string")
    return undefined;
  const parent = parseTraceparent(meta.traceparent);
  if (parent === undefined) return undefined;
  const state = (meta as { tracestate?: unknown }).tracestate;
  if (typeof state === "string" && parseTracestate(state) !== undefined && state.trim() !== "") {
    return { ...parent, traceState: state };
  }
  return parent;
}

/**
 * The trace of a request at this hop: a new span in the caller's trace when `parent` is given, or a
 * new sampled trace otherwise.
 */
export function startRequestTrace(
  parent: TraceContext | undefined,
  ids: IdGenerator,
): RequestTrace {
  if (parent === undefined) {
    return { traceId: ids.traceId(), spanId: ids.spanId(), traceFlags: TRACE_FLAG_SAMPLED };
  }
  return {
    traceId: parent.traceId,
    spanId: ids.spanId(),
    parentSpanId: parent.spanId,
    traceFlags: parent.traceFlags,
    ...(parent.traceState === undefined ? {} : { traceState: parent.traceState }),
  };
}

/**
 * Returns a copy of `params` whose `_meta` carries `context` as `traceparent` (and `tracestate`), so a
 * forwarded request continues the trace; `context` is the forwarding hop's own span. `params` is not
 * changed. Positional (array) params cannot carry `_meta` and are returned as they are. A
 * `tracestate` over 32 members or 512 characters is truncated (see `truncateTracestate`); an invalid
 * one is left out.
 */
export function injectTraceContext(
  params: undefined,
  context: TraceContext,
): { _meta: Record<string, unknown> };
/** Same, for params that are already an object (or an array, returned unchanged). */
export function injectTraceContext<P extends object>(params: P, context: TraceContext): P;
export function injectTraceContext(params: unknown, context: TraceContext): unknown {
  if (Array.isArray(params)) return params;
  const base =
    params !== null && typeof params === "object" ? (params as Record<string, unknown>) : {};
  const copy = copyRecord(base);
  copy._meta = metaWithTrace(base, context);
  return copy;
}

/**
 * Writes `context` into `_meta` of params handed off as owned (see {@link HandOffOptions}), in
 * place; `_meta` itself is still copied (it may be the client's).
 */
export function injectTraceContextInPlace(params: object, context: TraceContext): void {
  (params as Record<string, unknown>)._meta = metaWithTrace(params, context);
}

function metaWithTrace(params: object, context: TraceContext): Record<string, unknown> {
  // `_meta` read inline: every forwarded request comes here.
  const existing = (params as { _meta?: unknown })._meta;
  const meta: Record<string, unknown> =
    existing === null || typeof existing !== "object" || Array.isArray(existing)
      ? {}
      : copyRecord(existing as Record<string, unknown>);
  meta.traceparent = formatTraceparent(context);
  const traceState =
    context.traceState === undefined ? undefined : truncateTracestate(context.traceState);
  if (traceState !== undefined) meta.tracestate = traceState;
  // Only when there is one to remove: `delete` would make every copy a slower dictionary object.
  else if (Object.hasOwn(meta, "tracestate")) delete meta.tracestate;
  return meta;
}
