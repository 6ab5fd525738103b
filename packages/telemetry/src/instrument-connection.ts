import type {
  Cancellation,
  Connection,
  JSONRPCParams,
  RequestContext,
  RequestDescriptor,
  RequestHandler,
  RequestOptions,
} from "@patchbay/jsonrpc-core";
import { NOOP_OPEN_TELEMETRY_BRIDGE } from "./open-telemetry-bridge.js";
import { outcomeOfError, outcomeOfResult } from "./request-books.js";
import { requestSiteOf } from "./request-series.js";
import {
  addSpanFields,
  type RequestEnd,
  type RequestStart,
  type RequestTracker,
  startTracking,
} from "./request-tracker.js";
import type { Telemetry } from "./telemetry.js";
import { injectTraceContext, type RequestTrace } from "./trace-context.js";

/** Options of {@link instrumentConnection}. */
export interface InstrumentConnectionOptions {
  /** Backend at the other end, for labels and events (for a backend-facing connection). */
  readonly backend?: string;
  /** Event source (default: the telemetry's). */
  readonly source?: string;
  /** Write this hop's trace context into `_meta` of outgoing requests (default true). */
  readonly propagate?: boolean;
  /** The client session the connection serves: `data.session` of its requests' events. */
  readonly session?: string;
  /**
   * True for the tool names metrics may label an incoming `tools/call` with (a router: the names
   * its catalogue exposes); others count under `__unknown__`. Default: every name.
   */
  readonly knownTool?: (name: string) => boolean;
  /** The MCP revision agreed on the connection, for spans (`mcp.protocol.version`). */
  readonly protocolVersion?: () => string | undefined;
  /** `network.transport` of its spans: `pipe` for stdio, `tcp` for HTTP and WebSocket. */
  readonly networkTransport?: string;
  /** `mcp.session.id` of its spans: the transport's session (`Mcp-Session-Id`); default `session`. */
  readonly mcpSessionId?: string;
}

type AnyHandler = (params: unknown, context: RequestContext) => unknown;
type MethodArgument = string | RequestDescriptor<unknown, unknown>;

// A symbol-keyed field of the context rather than a WeakMap: a WeakMap entry per request makes every
// young-generation GC walk them as ephemerons. Symbols stay out of `Object.keys` and JSON.
const traceKey = Symbol("patchbay.requestTrace");
type TracedContext = RequestContext & { [traceKey]?: RequestTrace };

/**
 * The trace of the request a handler is serving, given the handler's `RequestContext` (only for
 * handlers registered on an instrumented connection). Forward it with `injectTraceContext` so the
 * backend's work joins the caller's trace.
 */
export function requestTraceOf(context: RequestContext): RequestTrace | undefined {
  return (context as TracedContext)[traceKey];
}

// Chained with `then` rather than an async function: one promise less per request. Takes what the
// call returned (or a rejection of what it threw), not a function to call: no closure per request.
function settle(
  tracker: RequestTracker,
  returned: unknown,
  signal?: Pick<AbortSignal, "aborted" | "reason">,
): Promise<unknown> {
  return Promise.resolve(returned).then(
    (result) => {
      // A handler that finishes after its request was cancelled answers no one.
      tracker.end(signal?.aborted ? cancelled(signal) : outcomeOfResult(result));
      return result;
    },
    (error: unknown) => {
      tracker.end(signal?.aborted ? cancelled(signal) : outcomeOfError(error));
      throw error;
    },
  );
}

/**
 * A jsonrpc-core context (it has `cancellation`) on another connection, copied field by field so
 * that its `signal` stays lazy (a spread would read it): the original's, read when read.
 */
class RelayedContext implements RequestContext {
  readonly id: RequestContext["id"];
  readonly method: string;
  readonly cancellation: Cancellation;
  readonly info: RequestContext["info"];
  readonly connection: Connection;
  readonly #original: RequestContext;

  constructor(original: RequestContext, cancellation: Cancellation, connection: Connection) {
    this.id = original.id;
    this.method = original.method;
    this.cancellation = cancellation;
    this.info = original.info;
    this.connection = connection;
    this.#original = original;
  }

  get signal(): AbortSignal {
    return this.#original.signal;
  }
}

function cancelled(signal: Pick<AbortSignal, "reason">): RequestEnd {
  const reason: unknown = signal.reason;
  return {
    outcome: "cancelled",
    error: { message: reason instanceof Error ? reason.message : String(reason ?? "cancelled") },
  };
}

/**
 * Wraps a Connection so its outgoing requests (`request`) and the requests its handlers answer
 * (`handle`, `setFallbackRequestHandler`) are traced, timed, counted and recorded; timeouts,
 * cancellations and closes are told apart by jsonrpc-core's local error codes. Handlers receive a
 * context whose `connection` is the instrumented one. Every other member calls the original's. Use it
 * or `instrumentTransport` on a channel, not both.
 */
export function instrumentConnection(
  connection: Connection,
  telemetry: Telemetry,
  options: InstrumentConnectionOptions = {},
): Connection {
  const propagate = options.propagate ?? true;
  const labels = {
    ...(options.backend === undefined ? {} : { backend: options.backend }),
    ...(options.source === undefined ? {} : { source: options.source }),
  };
  const target = connection as unknown as {
    request(
      method: MethodArgument,
      params?: unknown,
      requestOptions?: RequestOptions,
    ): Promise<unknown>;
    handle(method: MethodArgument, handler: AnyHandler): () => void;
    setFallbackRequestHandler(handler: AnyHandler | undefined): void;
  };
  let instrumented: Connection;

  // What only spans read: handed to each request's start only when spans may be recorded.
  const spanFields = telemetry.openTelemetry === NOOP_OPEN_TELEMETRY_BRIDGE ? undefined : options;
  const incomingSite = requestSiteOf(telemetry.metrics, "incoming", options.backend);
  const outgoingSite = requestSiteOf(telemetry.metrics, "outgoing", options.backend);
  const wrapHandler =
    (handler: AnyHandler): AnyHandler =>
    (params, context) => {
      const start: { -readonly [K in keyof RequestStart]: RequestStart[K] } = {
        direction: "incoming",
        method: context.method,
        params,
        id: context.id,
      };
      if (options.backend !== undefined) start.backend = options.backend;
      if (options.source !== undefined) start.source = options.source;
      if (options.session !== undefined) start.session = options.session;
      if (options.knownTool !== undefined) start.knownTool = options.knownTool;
      if (spanFields !== undefined) addSpanFields(start, spanFields);
      const tracker = startTracking(telemetry, start, incomingSite);
      // The context with the instrumented connection (see `withConnection`, inlined: per request).
      const wrappedContext: TracedContext =
        context.cancellation === undefined
          ? { ...context, connection: instrumented }
          : new RelayedContext(context, context.cancellation, instrumented);
      wrappedContext[traceKey] = tracker.trace;
      const cancellation = context.cancellation ?? context.signal;
      let returned: unknown;
      try {
        returned = handler(params, wrappedContext);
      } catch (error) {
        returned = Promise.reject(error);
      }
      return settle(tracker, returned, cancellation);
    };

  const overrides = {
    request(method: MethodArgument, params?: unknown, requestOptions?: RequestOptions) {
      const start: { -readonly [K in keyof RequestStart]: RequestStart[K] } = {
        direction: "outgoing",
        method: typeof method === "string" ? method : method.method,
        params,
        ...labels,
      };
      if (spanFields !== undefined) addSpanFields(start, spanFields);
      const tracker = startTracking(telemetry, start, outgoingSite);
      let sent = params;
      if (propagate && !Array.isArray(params)) {
        sent =
          params === undefined
            ? injectTraceContext(undefined, tracker.trace)
            : injectTraceContext(params as JSONRPCParams, tracker.trace);
      }
      let returned: unknown;
      try {
        returned = target.request(method, sent, requestOptions);
      } catch (error) {
        returned = Promise.reject(error);
      }
      return settle(tracker, returned);
    },
    handle(method: MethodArgument, handler: AnyHandler) {
      return target.handle(method, wrapHandler(handler));
    },
    setFallbackRequestHandler(handler: RequestHandler | undefined) {
      target.setFallbackRequestHandler(
        handler === undefined ? undefined : wrapHandler(handler as AnyHandler),
      );
    },
  };

  // A plain object: the three members above, the others calling the original's (no trap per access).
  instrumented = {
    start: () => connection.start(),
    close: () => connection.close(),
    get closed() {
      return connection.closed;
    },
    onClose: (listener) => connection.onClose(listener),
    onError: (listener) => connection.onError(listener),
    request: overrides.request as Connection["request"],
    notify: connection.notify.bind(connection),
    handle: overrides.handle as Connection["handle"],
    handleNotification: connection.handleNotification.bind(connection),
    onNotification: (listener) => connection.onNotification(listener),
    setFallbackRequestHandler: overrides.setFallbackRequestHandler,
  };
  return instrumented;
}
