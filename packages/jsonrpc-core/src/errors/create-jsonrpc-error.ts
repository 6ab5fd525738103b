import type { JSONRPCErrorObject } from "../messages.js";
import { ErrorCode } from "./error-code.js";
import { JSONRPCError } from "./jsonrpc-error.js";
import {
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  ParseError,
} from "./standard-errors.js";

/**
 * Rebuilds a typed error from an `error` object received on the wire: the standard codes become their
 * subclass (so `MethodNotFoundError.isInstance(error)` works on the caller's side), any other code a
 * plain {@link JSONRPCError}. Code, message and data are kept as the peer sent them.
 */
export function createJSONRPCError(errorObject: JSONRPCErrorObject): JSONRPCError {
  const { code, message, data } = errorObject;
  switch (code) {
    case ErrorCode.ParseError:
      return new ParseError(message, data);
    case ErrorCode.InvalidRequest:
      return new InvalidRequestError(message, data);
    case ErrorCode.MethodNotFound:
      return new MethodNotFoundError(message, data);
    case ErrorCode.InvalidParams:
      return new InvalidParamsError(message, data);
    case ErrorCode.InternalError:
      return new InternalError(message, data);
    default:
      return new JSONRPCError(code, message, data);
  }
}
