import { type RequestTracker, trackRequest } from "./request-tracker.js";
import { outcomeOfError, outcomeOfResult } from "./response-outcome.js";
import type { Telemetry } from "./telemetry.js";
import type { RequestTrace } from "./trace-meta.js";
import { injectTraceContext } from "./trace-meta.js";

/**
 * The part of jsonrpc-core's `Connection` the decorator wraps. Parameters are typed loosely so any
 * Connection (generic overloads included) fits; everything else passes through untouched.
 */
export interface InstrumentableConnection {
  request(...args: never[]): Promise<unknown>;
  handle(...args: never[]): unknown;
  setFallbackRequestHandler?(...args: never[]): unknown;
}

/** Options of {@link instrumentConnection}. */
export interface InstrumentConnectionOptions {
  /** Backend at the other end, for labels and events (for a backend-facing connection). */
  readonly backend?: string;
  /** Event source (default: the telemetry's). */
  readonly source?: string;
  /** Write this hop's trace context into `_meta` of outgoing requests (default true). */
  readonly propagate?: boolean;
}

type Handler = (params: unknown, context: HandlerContext) => unknown;
type MethodArgument = string | { readonly method: string };

interface HandlerContext {
  readonly id?: string | number;
  readonly method?: string;
}

const traces = new WeakMap<object, RequestTrace>();

/**
 * The trace of the request a handler is serving, given the handler's `RequestContext` (only for
 * handlers registered on an instrumented connection). Forward it with `injectTraceContext` so the
 * backend's work joins the caller's trace.
 */
export function requestTraceOf(context: object): RequestTrace | undefined {
  return traces.get(context);
}

function methodName(method: MethodArgument): string {
  return typeof method === "string" ? method : method.method;
}

async function settle(tracker: RequestTracker, run: () => unknown): Promise<unknown> {
  try {
    const result = await run();
    tracker.end(outcomeOfResult(result));
    return result;
  } catch (error) {
    tracker.end(outcomeOfError(error));
    throw error;
  }
}

/**
 * Wraps a Connection so its outgoing requests (`request`) and the requests its handlers answer
 * (`handle`, `setFallbackRequestHandler`) are traced, timed, counted and recorded; timeouts,
 * cancellations and closes are told apart by jsonrpc-core's local error codes. Every other member
 * is the original's. Use it or `instrumentTransport` on a channel, not both.
 */
export function instrumentConnection<C extends InstrumentableConnection>(
  connection: C,
  telemetry: Telemetry,
  options: InstrumentConnectionOptions = {},
): C {
  const propagate = options.propagate ?? true;
  const context = {
    ...(options.backend === undefined ? {} : { backend: options.backend }),
    ...(options.source === undefined ? {} : { source: options.source }),
  };
  const target = connection as unknown as {
    request(method: MethodArgument, params?: unknown, requestOptions?: unknown): Promise<unknown>;
    handle(method: MethodArgument, handler: Handler): unknown;
    setFallbackRequestHandler?(handler: Handler): unknown;
  };

  const wrapHandler =
    (handler: Handler, fallbackMethod: string | undefined): Handler =>
    (params, handlerContext) => {
      const tracker = trackRequest(telemetry, {
        direction: "incoming",
        method: handlerContext?.method ?? fallbackMethod ?? "unknown",
        params,
        ...(handlerContext?.id === undefined ? {} : { id: handlerContext.id }),
        ...context,
      });
      if (handlerContext !== null && typeof handlerContext === "object") {
        traces.set(handlerContext, tracker.trace);
      }
      return settle(tracker, () => handler(params, handlerContext));
    };

  const overrides: Record<PropertyKey, unknown> = {
    request(method: MethodArgument, params?: unknown, requestOptions?: unknown) {
      const tracker = trackRequest(telemetry, {
        direction: "outgoing",
        method: methodName(method),
        params,
        ...context,
      });
      const sent =
        propagate && !Array.isArray(params)
          ? params === undefined
            ? injectTraceContext(undefined, tracker.trace)
            : injectTraceContext(params as object, tracker.trace)
          : params;
      return settle(tracker, () => target.request(method, sent, requestOptions));
    },
    handle(method: MethodArgument, handler: Handler) {
      return target.handle(method, wrapHandler(handler, methodName(method)));
    },
    setFallbackRequestHandler(handler: Handler) {
      return target.setFallbackRequestHandler?.(wrapHandler(handler, undefined));
    },
  };

  return new Proxy(connection, {
    get(object, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property];
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}
