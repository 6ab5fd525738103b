import type { JSONRPCErrorResponse } from "../messages.js";
import { errorMarker, hasErrorMarker, setErrorMarker } from "./error-marker.js";
import { LocalError, type LocalErrorOptions } from "./local-error.js";

const transportMarker = errorMarker("TransportError");
const invalidFrameMarker = errorMarker("InvalidFrameError");
const lineTooLongMarker = errorMarker("LineTooLongError");

/** The transport failed or is closed (`code: "TRANSPORT_FAILURE"`). */
export class TransportError extends LocalError {
  /** Creates a transport error; `cause` is the underlying failure, if any. */
  constructor(message: string, options?: LocalErrorOptions) {
    super("TRANSPORT_FAILURE", message, options);
    this.name = "TransportError";
    setErrorMarker(this, transportMarker);
  }

  /** True for a TransportError from any installed copy of this package. */
  static override isInstance(value: unknown): value is TransportError {
    return hasErrorMarker(value, transportMarker);
  }
}

/**
 * Received text was not valid JSON-RPC as a whole (`code: "INVALID_FRAME"`). Transports report it to
 * their error listeners and stay open; the receiver sends `response` (-32700 or -32600) back.
 */
export class InvalidFrameError extends LocalError {
  /** The error response owed to the peer. */
  readonly response: JSONRPCErrorResponse;

  /** Creates the report for one invalid frame. */
  constructor(message: string, response: JSONRPCErrorResponse, options?: LocalErrorOptions) {
    super("INVALID_FRAME", message, options);
    this.name = "InvalidFrameError";
    this.response = response;
    setErrorMarker(this, invalidFrameMarker);
  }

  /** True for an InvalidFrameError from any installed copy of this package. */
  static override isInstance(value: unknown): value is InvalidFrameError {
    return hasErrorMarker(value, invalidFrameMarker);
  }
}

/**
 * A line exceeded the line decoder's `maxLineBytes` (`code: "LINE_TOO_LONG"`). The line is dropped
 * and decoding resumes after its newline.
 */
export class LineTooLongError extends LocalError {
  /** The configured limit, in bytes. */
  readonly maxLineBytes: number;

  /** Creates the report for one overlong line. */
  constructor(maxLineBytes: number) {
    super(
      "LINE_TOO_LONG",
      `Line longer than ${maxLineBytes} bytes; dropped up to the next newline`,
    );
    this.name = "LineTooLongError";
    this.maxLineBytes = maxLineBytes;
    setErrorMarker(this, lineTooLongMarker);
  }

  /** True for a LineTooLongError from any installed copy of this package. */
  static override isInstance(value: unknown): value is LineTooLongError {
    return hasErrorMarker(value, lineTooLongMarker);
  }
}
