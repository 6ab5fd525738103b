import {
  type Frame,
  type FrameInfo,
  isBatch,
  type JSONRPCErrorResponse,
  type JSONRPCId,
  type JSONRPCMessage,
  type Transport,
} from "@patchbay/jsonrpc-core";
import { createIdGenerator } from "@patchbay/telemetry";
import type { Clock } from "@patchbay/transport-http";
import { jsonBytesBound } from "./result-size.js";

/** JSON-RPC code of a request the gateway gave up on (the router's `BackendTimeout`). */
export const REQUEST_TIMEOUT_CODE = -32001;
/** JSON-RPC code of a result larger than `maxResultBytes`. */
export const RESULT_TOO_LARGE_CODE = -32010;
const CONNECTION_CLOSED_CODE = -32000;

/** One client request, once answered (or given up on), for logs and metrics. */
export interface FrontRequestEnd {
  readonly method: string;
  /** `params.name` of `tools/call` and `prompts/get`. */
  readonly name: string | undefined;
  /** `ok`, or the JSON-RPC error code. */
  readonly status: "ok" | number;
  /** `error.data.backend` of an error, when the router named one. */
  readonly backend: string | undefined;
  readonly durationMs: number;
  readonly traceId: string | undefined;
}

/** Options of {@link guardFrontTransport}. */
export interface FrontGuardOptions {
  /** Answer a request still pending after this long with -32001 and cancel it; 0: never. */
  readonly requestTimeoutMs: number;
  /** A result whose JSON is larger fails that call with -32010. */
  readonly maxResultBytes: number;
  readonly clock: Clock;
  /** Called once per answered request. */
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
  const { clock } = options;
  const pending = new Map<JSONRPCId, Pending>();
  const frameListeners = new Set<(frame: Frame, info: FrameInfo) => void>();
  let idleWaiters: (() => void)[] = [];

  function settle(id: JSONRPCId, status: "ok" | number, backend: string | undefined): boolean {
    const entry = pending.get(id);
    if (entry === undefined) return false;
    pending.delete(id);
    if (entry.timer !== undefined) clock.clearTimeout(entry.timer);
    options.onRequestEnd?.({
      method: entry.method,
      name: entry.name,
      status,
      backend,
      durationMs: clock.now() - entry.startedAt,
      traceId: entry.traceId,
    });
    if (pending.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const waiter of waiters) waiter();
    }
    return true;
  }

  function expire(id: JSONRPCId): void {
    const entry = pending.get(id);
    if (entry === undefined) return;
    const message = `request timed out after ${options.requestTimeoutMs} ms (limits.requestTimeoutMs)`;
    settle(id, REQUEST_TIMEOUT_CODE, undefined);
    const answer: JSONRPCErrorResponse = {
      jsonrpc: "2.0",
      id,
      error: { code: REQUEST_TIMEOUT_CODE, message },
    };
    inner.send(answer).catch(() => {});
    // Tell the router the client gave up, so the backend gets notifications/cancelled.
    const cancel: Frame = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: id, reason: message },
    };
    for (const listener of frameListeners) listener(cancel, {});
  }

  function track(message: JSONRPCMessage, info: FrameInfo): JSONRPCMessage {
    if (!("method" in message) || !("id" in message)) return message;
    const params = (message.params ?? {}) as { name?: unknown; _meta?: Record<string, unknown> };
    const headers = (info.extra?.requestInfo as { headers?: Record<string, unknown> } | undefined)
      ?.headers;
    // The request's trace: its own `_meta.traceparent`, else the HTTP header's, else a new one,
    // handed to the router so that its spans, the backend and this log line share one trace id.
    const own = traceIdOf(params._meta?.traceparent);
    const header = headers?.traceparent;
    const traceparent =
      own === undefined && traceIdOf(header) !== undefined ? (header as string) : undefined;
    const added = own === undefined ? (traceparent ?? newTraceparent()) : undefined;
    pending.set(message.id, {
      method: message.method,
      name: typeof params.name === "string" ? params.name : undefined,
      startedAt: clock.now(),
      traceId: own ?? traceIdOf(added),
      timer:
        options.requestTimeoutMs > 0
          ? clock.setTimeout(() => expire(message.id), options.requestTimeoutMs)
          : undefined,
    });
    if (added === undefined) return message;
    return { ...message, params: { ...params, _meta: { ...params._meta, traceparent: added } } };
  }

  function outgoing(message: JSONRPCMessage): JSONRPCMessage | undefined {
    if ("method" in message || !("id" in message) || message.id === null) return message;
    if ("error" in message) {
      const data = message.error.data as { backend?: unknown; server?: unknown } | undefined;
      const backend = typeof data?.backend === "string" ? data.backend : undefined;
      if (!settle(message.id, message.error.code, backend)) return undefined;
      if (backend === undefined || data?.server !== undefined) return message;
      return { ...message, error: { ...message.error, data: { ...data, server: backend } } };
    }
    // Serialized to learn the exact size only when a cheap bound cannot tell it is within the limit.
    const size =
      jsonBytesBound(message.result, options.maxResultBytes) <= options.maxResultBytes
        ? 0
        : Buffer.byteLength(JSON.stringify(message.result));
    if (size > options.maxResultBytes) {
      if (!settle(message.id, RESULT_TOO_LARGE_CODE, undefined)) return undefined;
      return {
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: RESULT_TOO_LARGE_CODE,
          message: `the result of ${size} bytes exceeds the limit of ${options.maxResultBytes} bytes (limits.maxResultBytes)`,
        },
      };
    }
    return settle(message.id, "ok", undefined) ? message : undefined;
  }

  inner.onFrame((frame, info) => {
    const tracked = isBatch(frame)
      ? frame.map((message) => track(message, info))
      : track(frame, info);
    for (const listener of frameListeners) listener(tracked, info);
  });
  inner.onClose(() => {
    for (const id of [...pending.keys()]) settle(id, CONNECTION_CLOSED_CODE, undefined);
  });

  return {
    start: () => inner.start(),
    close: () => inner.close(),
    onError: (listener) => inner.onError(listener),
    onClose: (listener) => inner.onClose(listener),
    onFrame(listener) {
      frameListeners.add(listener);
      return () => frameListeners.delete(listener);
    },
    async send(frame, sendOptions) {
      // The router relates what it sends on a client's behalf (a backend's log line or sampling
      // request during a call) to that call; Streamable HTTP puts it on the call's stream.
      if (!isBatch(frame) && "method" in frame) {
        await inner.send(frame, sendOptions);
        return;
      }
      if (!isBatch(frame)) {
        const message = outgoing(frame);
        if (message !== undefined) await inner.send(message, sendOptions);
        return;
      }
      const kept = frame.flatMap((message) => {
        const result = outgoing(message);
        return result === undefined ? [] : [result];
      });
      if (kept.length > 0) await inner.send(kept);
    },
    get pending() {
      return pending.size;
    },
    idle() {
      if (pending.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
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

function newTraceparent(): string {
  return `00-${traceIds.traceId()}-${traceIds.spanId()}-01`;
}
