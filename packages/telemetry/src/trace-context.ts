// W3C Trace Context (https://www.w3.org/TR/trace-context/) in one place: trace and span ids, the
// `traceparent` and `tracestate` values, and a request's trace carried in (or handed off beside) its
// `_meta`.

/**
 * A W3C Trace Context (https://www.w3.org/TR/trace-context/): the trace, the span that is the parent
 * of whatever receives it, the flags (bit 0: sampled) and the vendor `tracestate`.
 */
export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lowercase hex digits, not all zero: the `parent-id` of a `traceparent`. */
  readonly spanId: string;
  /** The trace flags byte (0 to 255); bit 0 is `sampled`. */
  readonly traceFlags: number;
  /** The `tracestate` header value, kept only when it is valid. */
  readonly traceState?: string;
}

/** The `sampled` flag of {@link TraceContext.traceFlags}. */
export const TRACE_FLAG_SAMPLED = 0x01;

const hex2 = /^[0-9a-f]{2}$/;

/**
 * True for exactly `length` lowercase hex digits, not all zero. A loop over character codes rather
 * than a regular expression: every request checks three ids, and this is several times faster.
 */
function isNonZeroLowerHex(value: string, length: number): boolean {
  // Like RegExp#test, which the check replaced: a non-string is compared as its string form.
  const text = typeof value === "string" ? value : String(value);
  if (text.length !== length) return false;
  let nonZero = false;
  for (let index = 0; index < length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x30) continue;
    // 1-9 or a-f.
    if (!((code > 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x66))) return false;
    nonZero = true;
  }
  return nonZero;
}

/** True for 32 lowercase hex digits that are not all zero. */
export function isValidTraceId(value: string): boolean {
  return isNonZeroLowerHex(value, 32);
}

/** True for 16 lowercase hex digits that are not all zero. */
export function isValidSpanId(value: string): boolean {
  return isNonZeroLowerHex(value, 16);
}

/** The value {@link formatTraceparent} made last, with its parts, for {@link parseTraceparent}. */
let lastFormatted: (TraceContext & { readonly value: string }) | undefined;

/**
 * Parses a `traceparent` value strictly (Trace Context level 1, section 3.2): lowercase hex only,
 * version `ff` refused, all-zero ids refused, exact field lengths; version `00` must be exactly 55
 * characters, a higher version may carry more fields after a `-`. Returns `undefined` when invalid,
 * in which case the receiver starts a new trace.
 */
export function parseTraceparent(value: string): TraceContext | undefined {
  // A gateway parses, one hop later, the value it has just formatted: that one needs no parsing.
  if (lastFormatted !== undefined && value === lastFormatted.value) {
    const { traceId, spanId, traceFlags } = lastFormatted;
    return { traceId, spanId, traceFlags };
  }
  if (typeof value !== "string" || value.length < 55) return undefined;
  const version = value.slice(0, 2);
  if (!hex2.test(version) || version === "ff") return undefined;
  if (version === "00" && value.length !== 55) return undefined;
  if (value.length > 55 && value[55] !== "-") return undefined;
  if (value[2] !== "-" || value[35] !== "-" || value[52] !== "-") return undefined;
  const traceId = value.slice(3, 35);
  const spanId = value.slice(36, 52);
  const flags = value.slice(53, 55);
  if (!isValidTraceId(traceId) || !isValidSpanId(spanId) || !hex2.test(flags)) return undefined;
  // A future version's flags are only trusted for the bits this version defines (section 3.2.4).
  const traceFlags =
    version === "00" ? Number.parseInt(flags, 16) : Number.parseInt(flags, 16) & 0x01;
  return { traceId, spanId, traceFlags };
}

/** The 256 trace-flags bytes as two hex digits, made once. */
const FLAGS_HEX = Array.from({ length: 256 }, (_, flags) => flags.toString(16).padStart(2, "0"));

/** Formats a version `00` `traceparent` value. Throws a RangeError for invalid ids or flags. */

export function formatTraceparent(context: TraceContext): string {
  // The check itself, not `isValidTraceId`: every forwarded request formats one. A trace that
  // `startRequestTrace` made from ids known valid needs none (see `CheckedTrace`).
  if (!(context instanceof CheckedTrace)) {
    if (!isNonZeroLowerHex(context.traceId, 32))
      throw new RangeError(`invalid trace id ${context.traceId}`);
    if (!isNonZeroLowerHex(context.spanId, 16))
      throw new RangeError(`invalid span id ${context.spanId}`);
  }
  const flags = context.traceFlags;
  if (!Number.isInteger(flags) || flags < 0 || flags > 255)
    throw new RangeError(`invalid trace flags ${flags}`);
  const { traceId, spanId } = context;
  const value = `00-${traceId}-${spanId}-${FLAGS_HEX[flags]}`;
  // Valid parts, which parsing this version 00 value would give back exactly (ids that only passed
  // as their string form are not remembered).
  if (typeof traceId === "string" && typeof spanId === "string") {
    lastFormatted = { value, traceId, spanId, traceFlags: flags };
  }
  return value;
}

/** One `key=value` member of a `tracestate`. */
export type TraceStateEntry = readonly [key: string, value: string];

/** At most this many list members (Trace Context section 3.3.1.1). */
export const MAX_TRACESTATE_MEMBERS = 32;

const simpleKey = "[a-z][_0-9a-z\\-*/]{0,255}";
const tenantKey = "[a-z0-9][_0-9a-z\\-*/]{0,240}@[a-z][_0-9a-z\\-*/]{0,13}";
const keyPattern = new RegExp(`^(?:${simpleKey}|${tenantKey})$`);
// Printable ASCII except `,` and `=`; no trailing space.
const valuePattern = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/**
 * Parses a `tracestate` value (section 3.3): comma-separated `key=value` members, empty members and
 * optional whitespace allowed, at most 32 members, no duplicate keys. Returns `undefined` when any
 * member is invalid (the whole header is then discarded, as the specification allows).
 */
export function parseTracestate(value: string): TraceStateEntry[] | undefined {
  const entries = parseTracestateMembers(value);
  if (entries === undefined || entries.length > MAX_TRACESTATE_MEMBERS) return undefined;
  return entries;
}

/** Same as {@link parseTracestate} without the member limit, so a long list can be truncated. */
function parseTracestateMembers(value: string): TraceStateEntry[] | undefined {
  if (typeof value !== "string") return undefined;
  const entries: TraceStateEntry[] = [];
  const seen = new Set<string>();
  for (const rawMember of value.split(",")) {
    // OWS is spaces and tabs only (RFC 7230 section 3.2.3), not every Unicode space.
    const member = rawMember.replace(/^[ \t]+|[ \t]+$/g, "");
    if (member === "") continue;
    const equals = member.indexOf("=");
    if (equals <= 0) return undefined;
    const key = member.slice(0, equals);
    const memberValue = member.slice(equals + 1);
    if (!keyPattern.test(key) || !valuePattern.test(memberValue) || seen.has(key)) return undefined;
    seen.add(key);
    entries.push([key, memberValue]);
  }
  return entries;
}

/** Formats `tracestate` members as one header value. */
export function formatTracestate(entries: readonly TraceStateEntry[]): string {
  return entries.map(([key, value]) => `${key}=${value}`).join(",");
}

/** The combined `tracestate` length this package propagates at most (including commas). */
const MAX_TRACESTATE_LENGTH = 512;
/** Members longer than this (`key=value`) are the first to go when truncating. */
const LONG_TRACESTATE_MEMBER = 128;

/**
 * Makes a `tracestate` value fit to propagate: at most 32 members and 512 characters. Whole members
 * are removed, those longer than 128 characters first, then from the end (the oldest). A value that
 * already fits is returned unchanged; an invalid one gives `undefined`, as does a list left empty.
 */
export function truncateTracestate(value: string): string | undefined {
  const entries = parseTracestateMembers(value);
  if (entries === undefined || entries.length === 0) return undefined;
  if (entries.length <= MAX_TRACESTATE_MEMBERS && value.length <= MAX_TRACESTATE_LENGTH)
    return value;
  // W3C Trace Context level 1, section 3.3 "tracestate Limits" (w3.org/TR/trace-context-1/
  // #tracestate-limits): truncate whole entries, those over 128 characters first, then from the end.
  // The 32-member maximum is the `list` rule of the same section (`0*31` more members).
  const kept = [...entries];
  const memberLength = ([key, memberValue]: TraceStateEntry) => key.length + 1 + memberValue.length;
  let length = kept.reduce((total, entry) => total + memberLength(entry), 0) + kept.length - 1;
  while (kept.length > MAX_TRACESTATE_MEMBERS || length > MAX_TRACESTATE_LENGTH) {
    let index = kept.length - 1;
    for (let candidate = kept.length - 1; candidate >= 0; candidate -= 1) {
      if (memberLength(kept[candidate] as TraceStateEntry) > LONG_TRACESTATE_MEMBER) {
        index = candidate;
        break;
      }
    }
    const [removed] = kept.splice(index, 1);
    length -= memberLength(removed as TraceStateEntry) + (kept.length === 0 ? 0 : 1);
  }
  return kept.length === 0 ? undefined : formatTracestate(kept);
}

/** Fills the array with random bytes (default: `crypto.getRandomValues`). Injected for tests. */
export type RandomSource = (bytes: Uint8Array) => void;

/** Makes W3C trace and span ids. */
export interface IdGenerator {
  /** A new trace id: 32 lowercase hex digits, never all zero. */
  traceId(): string;
  /** A new span id: 16 lowercase hex digits, never all zero. */
  spanId(): string;
}

/**
 * Each byte's two hex digits as one 16-bit unit: written through a `Uint16Array` over the hex
 * codes, a byte costs one store, not two. Made through a byte view of the same memory, so the
 * digits land in order whatever the platform's byte order.
 */
const hexPairCodes = (() => {
  const digits = "0123456789abcdef";
  const pair = new Uint16Array(1);
  const pairBytes = new Uint8Array(pair.buffer);
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte += 1) {
    pairBytes[0] = digits.charCodeAt(byte >> 4);
    pairBytes[1] = digits.charCodeAt(byte & 15);
    table[byte] = pair[0] as number;
  }
  return table;
})();
const poolSize = 4096;
const zeroTraceId = "0".repeat(32);
const zeroSpanId = "0".repeat(16);

function defaultRandomSource(): RandomSource {
  return (bytes) => {
    globalThis.crypto.getRandomValues(bytes);
  };
}

/**
 * Creates an {@link IdGenerator}. Random bytes are drawn in blocks of 4 KiB, so the source is called
 * once per 256 trace ids rather than once per id.
 */
export function createIdGenerator(random: RandomSource = defaultRandomSource()): IdGenerator {
  const pool = new Uint8Array(poolSize);
  // The pool in hex, made once per draw (character codes, decoded to one string): an id is then
  // one slice of it, not 16 concatenations.
  const hexCodes = new Uint8Array(poolSize * 2);
  const hexPairs = new Uint16Array(hexCodes.buffer);
  const decoder = new TextDecoder();
  let hexPool = "";
  let offset = poolSize;

  const next = (length: number): string => {
    for (;;) {
      if (offset + length > poolSize) {
        random(pool);
        for (let index = 0; index < poolSize; index += 1) {
          const byte = pool[index]!;
          hexPairs[index] = hexPairCodes[byte]!;
        }
        hexPool = decoder.decode(hexCodes);
        offset = 0;
      }
      let zero = true;
      for (let index = offset; index < offset + length; index += 1) {
        if (pool[index] !== 0) {
          zero = false;
          break;
        }
      }
      const start = offset;
      offset += length;
      // All-zero ids are invalid (Trace Context sections 3.2.2.3, 3.2.2.4): draw again.
      if (!zero) return hexPool.slice(start * 2, offset * 2);
    }
  };

  // The usual case inline (one slice of the pool; an all-zero id is its zero string), `next` only
  // when the pool runs out or the id drawn is all zero: one call per id.
  const generator: IdGenerator = {
    traceId() {
      const start = offset;
      if (start + 16 <= poolSize) {
        offset = start + 16;
        const id = hexPool.slice(start * 2, offset * 2);
        if (id !== zeroTraceId) return id;
      }
      return next(16);
    },
    spanId() {
      const start = offset;
      if (start + 8 <= poolSize) {
        offset = start + 8;
        const id = hexPool.slice(start * 2, offset * 2);
        if (id !== zeroSpanId) return id;
      }
      return next(8);
    },
  };
  pooledGenerators.add(generator);
  return generator;
}

/** The generators {@link createIdGenerator} made: hex of random bytes, never all zero. */
const pooledGenerators = new WeakSet<IdGenerator>();

/**
 * A trace that {@link startRequestTrace} made from ids known valid: its span id (and trace id) from
 * a {@link createIdGenerator} generator, and a trace id of its own or of a parent that was one too.
 * `formatTraceparent` does not check its ids again (every forwarded request formats one). A class,
 * so that a copy (a spread, JSON) is a plain object whose ids are checked as any other's.
 */
class CheckedTrace implements RequestTrace {
  // Declared, not defined: assigned in the order an object literal of the same trace has its keys,
  // and the optional ones only when there is one (as a literal would leave them out).
  declare readonly traceId: string;
  declare readonly spanId: string;
  declare readonly parentSpanId?: string;
  declare readonly traceFlags: number;
  declare readonly traceState?: string;
  /** What the trace's owner keeps on it (see {@link keepOnTrace}); spreads and JSON leave it out. */
  #kept: unknown;

  constructor(traceId: string, spanId: string, traceFlags: number, parent?: TraceContext) {
    const self = this as { -readonly [K in keyof RequestTrace]: RequestTrace[K] };
    self.traceId = traceId;
    self.spanId = spanId;
    if (parent !== undefined) self.parentSpanId = parent.spanId;
    self.traceFlags = traceFlags;
    if (parent?.traceState !== undefined) self.traceState = parent.traceState;
  }

  static keep(trace: object, value: unknown): boolean {
    if (!(trace instanceof CheckedTrace)) return false;
    trace.#kept = value;
    return true;
  }

  static kept(trace: object): unknown {
    return trace instanceof CheckedTrace ? trace.#kept : undefined;
  }
}

/**
 * Keeps `value` with a trace {@link startRequestTrace} made from its own id pool, in a private
 * slot (no property: nothing to define per trace, nothing a copy takes along); false, keeping
 * nothing, for any other trace. Read back with {@link keptOnTrace}.
 */
export const keepOnTrace: (trace: object, value: unknown) => boolean = CheckedTrace.keep;

/** What {@link keepOnTrace} kept with `trace`, or `undefined`. */
export const keptOnTrace: (trace: object) => unknown = CheckedTrace.kept;

/**
 * A shallow copy of a plain object's own enumerable properties (symbols too), to which the caller
 * then adds or replaces properties. Much faster in V8 than a spread followed by more properties
 * (`{ ...source, key }`), which takes a slow path for every added property. `Object.assign` differs
 * from a spread only for an own `__proto__` key (JSON.parse makes one): it would set the copy's
 * prototype, so such an object is spread instead.
 */
export function copyRecord(source: object): Record<string, unknown> {
  return Object.hasOwn(source, "__proto__")
    ? { ...(source as Record<string, unknown>) }
    : Object.assign({}, source as Record<string, unknown>);
}

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
  if (pooledGenerators.has(ids)) {
    if (parent === undefined)
      return new CheckedTrace(ids.traceId(), ids.spanId(), TRACE_FLAG_SAMPLED);
    if (parent instanceof CheckedTrace)
      return new CheckedTrace(parent.traceId, ids.spanId(), parent.traceFlags, parent);
  }
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
