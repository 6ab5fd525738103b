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
import type { FrameInfo } from "../transport.js";
import type { Cancellation } from "./cancellation.js";
import { LazyAbort } from "./cancellation.js";
import { ConcurrencyLimit, DEFAULT_MAX_QUEUED_HANDLERS } from "./concurrency-limit.js";
import type { Connection, RequestContext, RequestHandler } from "./connection-types.js";
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
  readonly #active = new Map<JSONRPCId, LazyAbort>();
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
   * connection closed.
   */
  async dispatch(request: JSONRPCRequest, info: FrameInfo): Promise<JSONRPCResponse | undefined> {
    const slot = this.#limit.acquire();
    if (slot === undefined) return this.#busy(request);
    const controller = new LazyAbort();
    this.#active.set(request.id, controller);
    // A free slot costs no wait: the handler starts at once (it still answers asynchronously).
    if (slot !== true) await slot;
    try {
      if (controller.aborted) return undefined;
      const context = new HandlerContext(request, controller, info, this.#connection);
      const result = await this.#invoke(request, context);
      if (controller.aborted) return undefined;
      // A success response must carry `result`; `undefined` would vanish from the JSON.
      return { jsonrpc: "2.0", id: request.id, result: result === undefined ? null : result };
    } catch (error) {
      if (controller.aborted) return undefined;
      return { jsonrpc: "2.0", id: request.id, error: this.#toWireError(error, request.method) };
    } finally {
      this.#limit.release();
      if (this.#active.get(request.id) === controller) this.#active.delete(request.id);
    }
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
