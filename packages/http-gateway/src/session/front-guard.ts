import {
  encodePieces,
  type Frame,
  type FrameInfo,
  isBatch,
  type JSONRPCErrorResponse,
  type JSONRPCId,
  type JSONRPCMessage,
  type SendOptions,
  type TappedTransport,
  type Transport,
  type TransportCloseEvent,
  type TransportTap,
  tapTransport,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import { PatchbayErrorCode } from "@patchbay/mcp-types";
import {
  createIdGenerator,
  handOffTrace,
  startRequestTrace,
  type TraceContext,
} from "@patchbay/telemetry";
import type { Clock } from "@patchbay/transport-http";

/** JSON-RPC code of a request the gateway gave up on (`RequestTimeout`, the router's `BackendTimeout`). */
export const REQUEST_TIMEOUT_CODE = PatchbayErrorCode.RequestTimeout;
/** JSON-RPC code of a result larger than `maxResultBytes` (`ResponseTooLarge`). */
export const RESULT_TOO_LARGE_CODE = PatchbayErrorCode.ResponseTooLarge;
const CONNECTION_CLOSED_CODE = PatchbayErrorCode.ConnectionClosed;

/** One client request, once answered (or given up on), for logs and metrics. */
export interface FrontRequestEnd {
  readonly method: string;
  /** `params.name` of `tools/call` and `prompts/get`. */
  readonly name: string | undefined;
  /** `ok`, `cancelled` (the client sent `notifications/cancelled` for it), or the JSON-RPC error code. */
  readonly status: "ok" | "cancelled" | number;
  /** `error.data.backend` of an error, when the router named one. */
  readonly backend: string | undefined;
  readonly durationMs: number;
  readonly traceId: string | undefined;
  /** Served here for another replica, which the client reached (a relayed modern retry). */
  readonly relayed?: boolean;
}

/** Options of {@link guardFrontTransport}. */
export interface FrontGuardOptions {
  /** Answer a request still pending after this long with -32001 and cancel it; 0: never. */
  readonly requestTimeoutMs: number;
  /** A result whose JSON is larger fails that call with -32012 (`ResponseTooLarge`). */
  readonly maxResultBytes: number;
  readonly clock: Clock;
  /** Called once per request: answered, timed out, cancelled by the client, or cut off by a close. */
  readonly onRequestEnd?: (end: FrontRequestEnd) => void;
}

/** A guarded client transport and what is in flight on it. */
export interface GuardedTransport extends Transport {
  /** Requests received and not yet answered. */
  readonly pending: number;
  /** Resolves when nothing is in flight (at once when nothing is). */
  idle(): Promise<void>;
}

interface Pending {
  readonly method: string;
  readonly name: string | undefined;
  readonly startedAt: number;
  readonly traceId: string | undefined;
  readonly timer: unknown;
}

/**
 * Wraps a client's transport before the router serves it: times requests out, caps result size,
 * tags backend errors with `data.server` (the key older gateway clients read), and reports each
 * request's outcome. The router sees the client's frames unchanged; a late answer is dropped.
 */
export function guardFrontTransport(
  inner: Transport,
  options: FrontGuardOptions,
): GuardedTransport {
  return new FrontGuard(inner, options);
}

/**
 * {@link guardFrontTransport}'s transport: a class that is its own tap (its `incoming`, `outgoing`
 * and `closed` methods are the hooks), so that an idle session holds one object beside the tap, not
 * a closure per hook; what in-flight requests need is made on first use.
 */
class FrontGuard implements GuardedTransport, TransportTap {
  readonly #inner: Transport;
  readonly #tapped: TappedTransport;
  readonly #options: FrontGuardOptions;
  #pending: Map<JSONRPCId, Pending> | undefined;
  #idleWaiters: (() => void)[] | undefined;

  /** The tap's own `send`, bound once: every answer goes out through it, no method of ours between. */
  readonly send: (frame: Frame, sendOptions?: SendOptions) => Promise<void>;

  constructor(inner: Transport, options: FrontGuardOptions) {
    this.#inner = inner;
    this.#options = options;
    this.#tapped = tapTransport(inner, this);
    this.send = this.#tapped.send.bind(this.#tapped);
  }

  get pending(): number {
    return this.#pending?.size ?? 0;
  }

  start(): Promise<void> {
    return this.#tapped.start();
  }

  close(): Promise<void> {
    return this.#tapped.close();
  }

  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    return this.#tapped.onFrame(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.#tapped.onError(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.#tapped.onClose(listener);
  }

  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    const waiters = this.#idleWaiters ?? [];
    this.#idleWaiters = waiters;
    return new Promise((resolve) => waiters.push(resolve));
  }

  /** Tap hook: starts the books of each request the client sends, before the router sees it. */
  incoming(frame: Frame, info: FrameInfo): Frame {
    return isBatch(frame)
      ? frame.map((message) => this.#track(message, info))
      : this.#track(frame, info);
  }

  /** Tap hook: settles the request each response answers; a late answer is dropped. */
  outgoing(frame: Frame): Frame | undefined {
    // The router relates what it sends on a client's behalf (a backend's log line or sampling
    // request during a call) to that call; Streamable HTTP puts it on the call's stream.
    if (!isBatch(frame)) return "method" in frame ? frame : this.#answer(frame);
    const kept = frame.flatMap((message) => {
      const result = this.#answer(message);
      return result === undefined ? [] : [result];
    });
    return kept.length > 0 ? kept : undefined;
  }

  /** Tap hook: a request still pending when the client's transport closes ends with -32000. */
  closed(): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    for (const id of [...pending.keys()]) this.#settle(id, CONNECTION_CLOSED_CODE, undefined);
  }

  /**
   * The client gave up on a request: it ends now, as `cancelled` after the time until the cancel.
   * The router answers it no more (a late answer would be dropped), nor does the close.
   */
  #cancelled(params: unknown): void {
    const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof requestId === "string" || typeof requestId === "number") {
      this.#settle(requestId, "cancelled", undefined);
    }
  }

  #settle(id: JSONRPCId, status: FrontRequestEnd["status"], backend: string | undefined): boolean {
    const pending = this.#pending;
    const entry = pending?.get(id);
    if (pending === undefined || entry === undefined) return false;
    pending.delete(id);
    const { clock } = this.#options;
    if (entry.timer !== undefined) clock.clearTimeout(entry.timer);
    this.#options.onRequestEnd?.({
      method: entry.method,
      name: entry.name,
      status,
      backend,
      durationMs: clock.now() - entry.startedAt,
      traceId: entry.traceId,
    });
    if (pending.size > 0) return true;
    // An idle session holds no map (a session answers one request at a time more often than not).
    this.#pending = undefined;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = undefined;
    for (const waiter of waiters ?? []) waiter();
    return true;
  }

  #expire(id: JSONRPCId): void {
    if (this.#pending?.get(id) === undefined) return;
    const message = `request timed out after ${this.#options.requestTimeoutMs} ms (limits.requestTimeoutMs)`;
    this.#settle(id, REQUEST_TIMEOUT_CODE, undefined);
    const answer: JSONRPCErrorResponse = {
      jsonrpc: "2.0",
      id,
      error: { code: REQUEST_TIMEOUT_CODE, message },
    };
    this.#inner.send(answer).catch(() => {});
    // Tell the router the client gave up, so the backend gets notifications/cancelled.
    const cancel: Frame = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: id, reason: message },
    };
    this.#tapped.emitFrame(cancel, {});
  }

  #track(message: JSONRPCMessage, info: FrameInfo): JSONRPCMessage {
    if (!("method" in message)) return message;
    if (!("id" in message)) {
      if (message.method === "notifications/cancelled") this.#cancelled(message.params);
      return message;
    }
    const params = (message.params ?? {}) as { name?: unknown; _meta?: Record<string, unknown> };
    const headers = (info.extra?.requestInfo as { headers?: Record<string, unknown> } | undefined)
      ?.headers;
    // The request's trace: its own `_meta.traceparent`, else the HTTP header's, else a new one,
    // handed to the router so that its spans, the backend and this log line share one trace id.
    const traceparent = params._meta?.traceparent;
    const own = traceparent === undefined ? undefined : traceIdOf(traceparent);
    const added = own === undefined ? addedTrace(headers?.traceparent) : undefined;
    const { clock, requestTimeoutMs } = this.#options;
    this.#pending ??= new Map();
    this.#pending.set(message.id, {
      method: message.method,
      name: typeof params.name === "string" ? params.name : undefined,
      startedAt: clock.now(),
      traceId: own ?? added?.traceId,
      timer:
        requestTimeoutMs > 0
          ? clock.setTimeout(() => this.#expire(message.id), requestTimeoutMs)
          : undefined,
    });
    if (added === undefined) return message;
    // Copies made with `Object.assign` and assignments, not spreads followed by more keys: V8 gives
    // a spread's copy a shape that every later hop (the hand-off below, the router's forwarded copy,
    // the backend transport's traceparent) pays for again. An own `__proto__` key (JSON.parse makes
    // one) is spread instead: `Object.assign` would make it the copy's prototype.
    const traced: Record<string, unknown> = Object.hasOwn(params, "__proto__")
      ? { ...params }
      : Object.assign({}, params);
    traced._meta = { ...params._meta, traceparent: added.traceparent };
    // A trace made here is handed to the router's telemetry as it is: it reads it, not the text.
    if (added.trace !== undefined) handOffTrace(traced, added.trace);
    const copy: Record<string, unknown> = Object.hasOwn(message, "__proto__")
      ? { ...message }
      : Object.assign({}, message as unknown as Record<string, unknown>);
    copy.params = traced;
    return copy as unknown as JSONRPCMessage;
  }

  #answer(message: JSONRPCMessage): JSONRPCMessage | undefined {
    if ("method" in message || !("id" in message) || message.id === null) return message;
    if ("error" in message) {
      const data = message.error.data as { backend?: unknown; server?: unknown } | undefined;
      const backend = typeof data?.backend === "string" ? data.backend : undefined;
      if (!this.#settle(message.id, message.error.code, backend)) return undefined;
      if (backend === undefined || data?.server !== undefined) return message;
      return { ...message, error: { ...message.error, data: { ...data, server: backend } } };
    }
    const { maxResultBytes } = this.#options;
    // Serialized to learn the exact size only when a cheap bound cannot tell it is within the limit.
    const size =
      jsonBytesBound(message.result, maxResultBytes) <= maxResultBytes
        ? 0
        : resultBytes(message.result);
    if (size > maxResultBytes) {
      if (!this.#settle(message.id, RESULT_TOO_LARGE_CODE, undefined)) return undefined;
      return {
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: RESULT_TOO_LARGE_CODE,
          message: `the result of ${size} bytes exceeds the limit of ${maxResultBytes} bytes (limits.maxResultBytes)`,
        },
      };
    }
    return this.#settle(message.id, "ok", undefined) ? message : undefined;
  }
}

/** The envelope `encodePieces` puts around a result in {@link resultBytes}: `{"jsonrpc":"2.0","id":0,"result":` and `}`. */
const PROBE_ENVELOPE_BYTES = 34;

/**
 * The UTF-8 bytes of a result's JSON: the text a relay kept when it kept one (a large result from a
 * stdio backend), without serializing it; else `JSON.stringify`'s.
 */
function resultBytes(result: unknown): number {
  const pieces = encodePieces({ jsonrpc: "2.0", id: 0, result });
  if (typeof pieces === "string") return Buffer.byteLength(pieces) - PROBE_ENVELOPE_BYTES;
  return Buffer.byteLength(pieces[1]);
}

/** What a string code unit can cost at most in JSON as UTF-8: the escape `\u001f` is 6 bytes. */
const MAX_BYTES_PER_CODE_UNIT = 6;
/** The longest number JSON.stringify writes (`-1.2345678901234567e-308`). */
const MAX_NUMBER_BYTES = 24;

/**
 * An upper bound of the UTF-8 bytes of `JSON.stringify(value)`, found without serializing: a string
 * counts 6 bytes per UTF-16 code unit, a number 24, and so on, so a 10 MB text costs one length
 * read instead of a 10 MB copy. Returns `Infinity` as soon as the bound passes `limit`, and for
 * anything whose serialization it cannot bound (an object with `toJSON`, a bigint); callers then
 * serialize to learn the exact size.
 */
export function jsonBytesBound(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") total += 2 + item.length * MAX_BYTES_PER_CODE_UNIT;
    else if (typeof item === "number") total += MAX_NUMBER_BYTES;
    else if (typeof item === "boolean" || item === null || item === undefined) total += 5;
    else if (typeof item !== "object") return Number.POSITIVE_INFINITY;
    else if (typeof (item as { toJSON?: unknown }).toJSON === "function") {
      return Number.POSITIVE_INFINITY;
    } else if (Array.isArray(item)) {
      total += 2 + item.length;
      for (const element of item) stack.push(element);
    } else {
      total += 2;
      for (const key of Object.keys(item)) {
        total += 4 + key.length * MAX_BYTES_PER_CODE_UNIT;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
    if (total > limit) return Number.POSITIVE_INFINITY;
  }
  return total;
}

const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/** The trace id of a valid version-00 `traceparent` (W3C Trace Context), else undefined. */
function traceIdOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const match = traceparentPattern.exec(value);
  return match && !/^0+$/.test(match[1] as string) ? match[1] : undefined;
}

// Random bytes drawn 4 KiB at a time, not twice per request.
const traceIds = createIdGenerator();

/** The trace a request without its own `_meta.traceparent` is given. */
interface AddedTrace {
  readonly traceparent: string;
  readonly traceId: string;
  /** The trace when made here (not the HTTP header's). */
  readonly trace: TraceContext | undefined;
}

/** The HTTP `traceparent` header's trace when it is valid, else a new sampled one. */
function addedTrace(header: unknown): AddedTrace {
  const headerTraceId = header === undefined ? undefined : traceIdOf(header);
  if (headerTraceId !== undefined) {
    return { traceparent: header as string, traceId: headerTraceId, trace: undefined };
  }
  // A new sampled trace as telemetry starts one from its own id pool: the router's telemetry
  // continues it without checking its ids again, and keeps its call's books with it.
  const trace = startRequestTrace(undefined, traceIds);
  return {
    traceparent: `00-${trace.traceId}-${trace.spanId}-01`,
    traceId: trace.traceId,
    trace,
  };
}
