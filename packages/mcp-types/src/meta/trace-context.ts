import { getMeta, withMeta } from "./meta-access.js";
import { BAGGAGE_META_KEY, TRACEPARENT_META_KEY, TRACESTATE_META_KEY } from "./meta-keys.js";

/** W3C trace context carried in `_meta` (keys reserved by 2026-07-28; used in every era). */
export interface TraceContext {
  /** `version-traceid-parentid-flags`, e.g. `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01`. */
  readonly traceparent?: string;
  /** Vendor-specific trace state. */
  readonly tracestate?: string;
  /** W3C baggage. */
  readonly baggage?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** Whether `value` is a valid W3C `traceparent` (version not ff, ids not all zeros). */
export function isValidTraceparent(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const match = TRACEPARENT.exec(value);
  if (match === null) return false;
  const [, version, traceId, parentId] = match;
  return version !== "ff" && !/^0+$/.test(traceId as string) && !/^0+$/.test(parentId as string);
}

/** The 32-hex trace id of a valid `traceparent`, or undefined. */
export function getTraceIdFromTraceparent(traceparent: string): string | undefined {
  return isValidTraceparent(traceparent) ? traceparent.slice(3, 35) : undefined;
}

/**
 * The trace context in `_meta` of params or a result. An invalid `traceparent` is left out (and
 * `tracestate` with it, as W3C says); `baggage` is kept as a string.
 */
export function getTraceContext(target: unknown): TraceContext {
  const meta = getMeta(target);
  const traceparent = meta?.[TRACEPARENT_META_KEY];
  const tracestate = meta?.[TRACESTATE_META_KEY];
  const baggage = meta?.[BAGGAGE_META_KEY];
  const context: { traceparent?: string; tracestate?: string; baggage?: string } = {};
  if (isValidTraceparent(traceparent)) {
    context.traceparent = traceparent;
    if (typeof tracestate === "string") context.tracestate = tracestate;
  }
  if (typeof baggage === "string") context.baggage = baggage;
  return context;
}

/** A copy of params (or a result) carrying the trace context in `_meta`. */
export function withTraceContext<Target extends Record<string, unknown> | undefined>(
  target: Target,
  context: TraceContext,
) {
  if (context.traceparent !== undefined && !isValidTraceparent(context.traceparent)) {
    throw new TypeError(`Invalid traceparent: ${context.traceparent}`);
  }
  return withMeta(target, {
    [TRACEPARENT_META_KEY]: context.traceparent,
    [TRACESTATE_META_KEY]: context.tracestate,
    [BAGGAGE_META_KEY]: context.baggage,
  });
}
