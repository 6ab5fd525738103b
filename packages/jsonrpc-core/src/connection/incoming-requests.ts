import { CancelledError, ConnectionClosedError } from "../errors/connection-errors.js";
import { ErrorCode } from "../errors/error-code.js";
import { SERVER_BUSY_ERROR_CODE } from "../errors/implementation-error-code.js";
import { JSONRPCError } from "../errors/jsonrpc-error.js";
import { LocalError } from "../errors/local-error.js";
import { InvalidParamsError, MethodNotFoundError } from "../errors/standard-errors.js";
import { toError } from "../internal/listener-set.js";
import type {
  JSONRPCErrorObject,
  JSONRPCId,
  JSONRPCRequest,
  JSONRPCResponse,
} from "../messages.js";
import { RequestIdMap } from "../request-id-map.js";
import type { FrameInfo } from "../transport.js";
import type {
  Cancellation,
  Connection,
  RequestContext,
  RequestHandler,
} from "./connection-types.js";
import { describeSchemaFailure, type SchemaLike } from "./descriptors.js";

/** A registered request handler with the descriptor's params schema, if any. */
export interface HandlerEntry {
  readonly handler: RequestHandler<unknown, unknown>;
  readonly paramsSchema: SchemaLike<unknown> | undefined;
}

/** Runs incoming requests through their handlers, bounded, cancellable, and turns outcomes into responses. */
export class IncomingRequests {
  readonly handlers = new Map<string, HandlerEntry>();
  fallback: HandlerEntry | undefined;
  readonly #active = new RequestIdMap<LazyAbort>();
  readonly #limit: ConcurrencyLimit;
  readonly #connection: Connection;
  readonly #report: (error: Error) => void;
  readonly #maxQueued: number;

  constructor(
    connection: Connection,
    maxConcurrent: number,
    report: (error: Error) => void,
    maxQueued: number = DEFAULT_MAX_QUEUED_HANDLERS,
  ) {
    this.#connection = connection;
    this.#maxQueued = maxQueued;
    this.#limit = new ConcurrencyLimit(maxConcurrent, maxQueued);
    this.#report = report;
  }

  /**
   * Answers one request. Resolves with the response to send, or `undefined` when none is owed: the
   * request was cancelled by the peer (MCP 2025-06-18, cancellation: no response after cancel) or the
   * connection closed. `respond`, when given, is called with the response owed (after the handler's
   * slot is freed), before the promise resolves: a lone request's response is sent without a
   * handler on that promise.
   */
  async dispatch(
    request: JSONRPCRequest,
    info: FrameInfo,
    respond?: (response: JSONRPCResponse) => void,
  ): Promise<JSONRPCResponse | undefined> {
    const slot = this.#limit.acquire();
    if (slot === undefined) {
      const busy = this.#busy(request);
      respond?.(busy);
      return busy;
    }
    const controller = new LazyAbort();
    this.#active.set(request.id, controller);
    // A free slot costs no wait: the handler starts at once (it still answers asynchronously).
    if (slot !== true) await slot;
    let response: JSONRPCResponse | undefined;
    try {
      if (!controller.aborted) {
        const context = new HandlerContext(request, controller, info, this.#connection);
        const result = await this.#invoke(request, context);
        // A success response must carry `result`; `undefined` would vanish from the JSON.
        if (!controller.aborted)
          response = {
            jsonrpc: "2.0",
            id: request.id,
            result: result === undefined ? null : result,
          };
      }
    } catch (error) {
      if (!controller.aborted) {
        response = {
          jsonrpc: "2.0",
          id: request.id,
          error: this.#toWireError(error, request.method),
        };
      }
    } finally {
      this.#limit.release();
      this.#active.delete(request.id, controller);
    }
    if (response !== undefined) respond?.(response);
    return response;
  }

  /** Aborts the handler of request `id` (peer cancelled it); unknown ids are ignored. */
  cancel(id: JSONRPCId, reason: string | undefined): void {
    this.#active.get(id)?.abort(new CancelledError(reason ?? "Cancelled by the peer"));
  }

  /** Aborts every running or waiting handler (the connection closed). */
  abortAll(): void {
    for (const controller of this.#active.values()) {
      controller.abort(new ConnectionClosedError());
    }
    this.#active.clear();
  }

  // Not async: its caller awaits the handler's answer once.
  #invoke(request: JSONRPCRequest, context: Parameters<RequestHandler>[1]): unknown {
    const entry = this.handlers.get(request.method) ?? this.fallback;
    if (entry === undefined) throw new MethodNotFoundError(undefined, { method: request.method });
    let params: unknown = request.params;
    if (entry.paramsSchema !== undefined) {
      try {
        params = entry.paramsSchema.parse(params);
      } catch (error) {
        throw new InvalidParamsError(undefined, describeSchemaFailure(error));
      }
    }
    return entry.handler(params, context);
  }

  /** The answer to a request that found the wait queue full: nothing of it ran. */
  #busy(request: JSONRPCRequest): JSONRPCResponse {
    return {
      jsonrpc: "2.0",
      id: request.id,
      error: {
        code: SERVER_BUSY_ERROR_CODE,
        message: `Server busy: ${this.#maxQueued} requests already wait for a handler (maxQueuedHandlers); retry later`,
      },
    };
  }

  #toWireError(error: unknown, method: string): JSONRPCErrorObject {
    // Read the fields rather than calling toJSON(): the error may come from another installed copy.
    if (JSONRPCError.isInstance(error)) {
      const object: JSONRPCErrorObject = { code: error.code, message: error.message };
      if (error.data !== undefined) object.data = error.data;
      return object;
    }
    // Anything else stays local: the peer learns only that the call failed, never the stack.
    const failure = toError(error);
    const message = `Handler for "${method}" failed: ${failure.message}`;
    this.#report(new LocalError("HANDLER_FAILED", message, { cause: failure }));
    return { code: ErrorCode.InternalError, message: "Internal error" };
  }
}

/**
 * What a handler gets. `signal` is a getter on the prototype, made on first read (no AbortSignal
 * unless a handler reads it); a class keeps one shape for every context, where an object literal
 * with a getter would make a new one each time. Copy a context field by field: a spread leaves the
 * signal out.
 */
class HandlerContext implements RequestContext {
  readonly id: JSONRPCId;
  readonly method: string;
  readonly cancellation: Cancellation;
  readonly info: FrameInfo;
  readonly connection: Connection;
  readonly #abort: LazyAbort;

  constructor(request: JSONRPCRequest, abort: LazyAbort, info: FrameInfo, connection: Connection) {
    this.id = request.id;
    this.method = request.method;
    this.cancellation = abort;
    this.info = info;
    this.connection = connection;
    this.#abort = abort;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }
}

/** Default bound on incoming requests waiting for a handler slot. */
export const DEFAULT_MAX_QUEUED_HANDLERS = 1000;

/**
 * Lets at most `max` tasks hold a slot; the others wait in arrival order, at most `maxWaiting` of
 * them, so that a peer flooding requests cannot grow the queue without bound.
 */
export class ConcurrencyLimit {
  readonly #max: number;
  readonly #maxWaiting: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  /** `max` below 1 is treated as 1; `maxWaiting` below 0 as 0. */
  constructor(max: number, maxWaiting = Number.POSITIVE_INFINITY) {
    this.#max = Math.max(1, max);
    this.#maxWaiting = Math.max(0, maxWaiting);
  }

  /**
   * `true` when a slot is held at once, else a promise that resolves once one is; call `release()`
   * exactly once afterwards. Returns `undefined` (and holds nothing) when every slot is taken and
   * the wait queue is full.
   */
  acquire(): true | Promise<void> | undefined {
    if (this.#running < this.#max) {
      this.#running++;
      return true;
    }
    if (this.#waiting.length >= this.#maxWaiting) return undefined;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Frees a slot, handing it to the next waiting task if there is one. */
  release(): void {
    const next = this.#waiting.shift();
    if (next !== undefined) next();
    else this.#running--;
  }
}

/** A Cancellation whose `AbortSignal` exists only once read. */
export class LazyAbort implements Cancellation {
  /**
   * True once aborted: a field, not a getter, since it is read several times per request (set only
   * by `abort`; callers see it through the read-only `Cancellation`).
   */
  aborted = false;
  /** Why, once aborted (set only by `abort`). */
  reason: unknown;
  #controller: AbortController | undefined;
  #listeners: Array<(reason: unknown) => void> | undefined;

  /** An `AbortSignal` that follows this cancellation (made on first read). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  /** Aborts once: the signal (if made) first, then the listeners in order. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener(reason);
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.aborted) return noop;
    if (this.#listeners === undefined) this.#listeners = [];
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners?.indexOf(listener) ?? -1;
      if (index >= 0) this.#listeners?.splice(index, 1);
    };
  }
}

function noop(): void {}
