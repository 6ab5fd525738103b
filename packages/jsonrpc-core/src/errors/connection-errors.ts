import type { JSONRPCResponse } from "../messages.js";
import { errorMarker, hasErrorMarker, setErrorMarker } from "./error-marker.js";
import { LocalError, type LocalErrorOptions } from "./local-error.js";

const timeoutMarker = errorMarker("TimeoutError");
const closedMarker = errorMarker("ConnectionClosedError");
const cancelledMarker = errorMarker("CancelledError");
const unexpectedResponseMarker = errorMarker("UnexpectedResponseError");
const resultValidationMarker = errorMarker("ResultValidationError");

/** A request got no response in time (`code: "REQUEST_TIMEOUT"`). */
export class TimeoutError extends LocalError {
  /** The limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;

  /** Creates a timeout error for a limit of `timeoutMs`. */
  constructor(message: string, timeoutMs: number, options?: LocalErrorOptions) {
    super("REQUEST_TIMEOUT", message, options);
    this.name = "TimeoutError";
    this.timeoutMs = timeoutMs;
    setErrorMarker(this, timeoutMarker);
  }

  /** True for a TimeoutError from any installed copy of this package. */
  static override isInstance(value: unknown): value is TimeoutError {
    return hasErrorMarker(value, timeoutMarker);
  }
}

/** The connection closed before the request was answered (`code: "CONNECTION_CLOSED"`). */
export class ConnectionClosedError extends LocalError {
  /** Creates a connection-closed error; `cause` is the failure that closed it, if any. */
  constructor(message = "Connection closed", options?: LocalErrorOptions) {
    super("CONNECTION_CLOSED", message, options);
    this.name = "ConnectionClosedError";
    setErrorMarker(this, closedMarker);
  }

  /** True for a ConnectionClosedError from any installed copy of this package. */
  static override isInstance(value: unknown): value is ConnectionClosedError {
    return hasErrorMarker(value, closedMarker);
  }
}

/** The caller aborted the request (`code: "REQUEST_CANCELLED"`); `cause` is the abort reason. */
export class CancelledError extends LocalError {
  /** Creates a cancelled error. */
  constructor(message = "Request cancelled", options?: LocalErrorOptions) {
    super("REQUEST_CANCELLED", message, options);
    this.name = "CancelledError";
    setErrorMarker(this, cancelledMarker);
  }

  /** True for a CancelledError from any installed copy of this package. */
  static override isInstance(value: unknown): value is CancelledError {
    return hasErrorMarker(value, cancelledMarker);
  }
}

/**
 * A response arrived that matches no pending request: late (after a timeout or cancel), duplicate,
 * unknown, or an error with id `null` (`code: "UNEXPECTED_RESPONSE"`). Reported, never thrown.
 */
export class UnexpectedResponseError extends LocalError {
  /** The response that was ignored. */
  readonly response: JSONRPCResponse;

  /** Creates the report for one ignored response. */
  constructor(message: string, response: JSONRPCResponse) {
    super("UNEXPECTED_RESPONSE", message);
    this.name = "UnexpectedResponseError";
    this.response = response;
    setErrorMarker(this, unexpectedResponseMarker);
  }

  /** True for an UnexpectedResponseError from any installed copy of this package. */
  static override isInstance(value: unknown): value is UnexpectedResponseError {
    return hasErrorMarker(value, unexpectedResponseMarker);
  }
}

/**
 * A peer's result did not pass the `result` schema of the request descriptor
 * (`code: "INVALID_RESULT"`); `cause` is what the schema threw.
 */
export class ResultValidationError extends LocalError {
  /** Creates the error; `cause` is the schema's failure. */
  constructor(message: string, options?: LocalErrorOptions) {
    super("INVALID_RESULT", message, options);
    this.name = "ResultValidationError";
    setErrorMarker(this, resultValidationMarker);
  }

  /** True for a ResultValidationError from any installed copy of this package. */
  static override isInstance(value: unknown): value is ResultValidationError {
    return hasErrorMarker(value, resultValidationMarker);
  }
}
