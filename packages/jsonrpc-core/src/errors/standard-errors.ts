import { ErrorCode } from "./error-code.js";
import { errorMarker, hasErrorMarker, setErrorMarker } from "./error-marker.js";
import { JSONRPCError } from "./jsonrpc-error.js";

const parseMarker = errorMarker("ParseError");
const invalidRequestMarker = errorMarker("InvalidRequestError");
const methodNotFoundMarker = errorMarker("MethodNotFoundError");
const invalidParamsMarker = errorMarker("InvalidParamsError");
const internalMarker = errorMarker("InternalError");

/** -32700: the text was not valid JSON. */
export class ParseError extends JSONRPCError {
  /** Creates a -32700 error. */
  constructor(message = "Parse error", data?: unknown) {
    super(ErrorCode.ParseError, message, data);
    this.name = "ParseError";
    setErrorMarker(this, parseMarker);
  }

  /** True for a ParseError from any installed copy of this package. */
  static override isInstance(value: unknown): value is ParseError {
    return hasErrorMarker(value, parseMarker);
  }
}

/** -32600: the JSON was not a valid JSON-RPC message. */
export class InvalidRequestError extends JSONRPCError {
  /** Creates a -32600 error. */
  constructor(message = "Invalid Request", data?: unknown) {
    super(ErrorCode.InvalidRequest, message, data);
    this.name = "InvalidRequestError";
    setErrorMarker(this, invalidRequestMarker);
  }

  /** True for an InvalidRequestError from any installed copy of this package. */
  static override isInstance(value: unknown): value is InvalidRequestError {
    return hasErrorMarker(value, invalidRequestMarker);
  }
}

/** -32601: no handler for the requested method. */
export class MethodNotFoundError extends JSONRPCError {
  /** Creates a -32601 error. */
  constructor(message = "Method not found", data?: unknown) {
    super(ErrorCode.MethodNotFound, message, data);
    this.name = "MethodNotFoundError";
    setErrorMarker(this, methodNotFoundMarker);
  }

  /** True for a MethodNotFoundError from any installed copy of this package. */
  static override isInstance(value: unknown): value is MethodNotFoundError {
    return hasErrorMarker(value, methodNotFoundMarker);
  }
}

/** -32602: the params did not fit the method. */
export class InvalidParamsError extends JSONRPCError {
  /** Creates a -32602 error. */
  constructor(message = "Invalid params", data?: unknown) {
    super(ErrorCode.InvalidParams, message, data);
    this.name = "InvalidParamsError";
    setErrorMarker(this, invalidParamsMarker);
  }

  /** True for an InvalidParamsError from any installed copy of this package. */
  static override isInstance(value: unknown): value is InvalidParamsError {
    return hasErrorMarker(value, invalidParamsMarker);
  }
}

/** -32603: the handler failed for a reason the peer need not know. */
export class InternalError extends JSONRPCError {
  /** Creates a -32603 error. */
  constructor(message = "Internal error", data?: unknown) {
    super(ErrorCode.InternalError, message, data);
    this.name = "InternalError";
    setErrorMarker(this, internalMarker);
  }

  /** True for an InternalError from any installed copy of this package. */
  static override isInstance(value: unknown): value is InternalError {
    return hasErrorMarker(value, internalMarker);
  }
}
