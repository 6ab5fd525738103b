import type { JSONRPCErrorResponse, JSONRPCId } from "../messages.js";
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

/** What is known of a dropped overlong line (see {@link LineTooLongError}). */
export interface LineTooLongDetails {
  /** The line's length in bytes, when the whole line was seen. */
  readonly lineBytes?: number;
  /** The JSON-RPC id read from the start or the end of the line, when one was found. */
  readonly id?: JSONRPCId;
  /** Whether the line held a request (`method`) or a response (`result`/`error`), when known. */
  readonly messageType?: "request" | "response";
}

/**
 * A line exceeded the line decoder's `maxLineBytes` (`code: "LINE_TOO_LONG"`). The line is dropped
 * and decoding resumes after its newline. When the frame decoder could read the message's id and
 * kind from the ends of the line, they are in `id` and `messageType`: a Connection then fails the
 * pending request the response was for, or answers the request with an error.
 */
export class LineTooLongError extends LocalError {
  /** The configured limit, in bytes. */
  readonly maxLineBytes: number;
  /** The dropped line's length in bytes, when known. */
  readonly lineBytes: number | undefined;
  /** The id of the message the line held, when it could be read. */
  readonly id: JSONRPCId | undefined;
  /** The kind of message the line held, when it could be read. */
  readonly messageType: "request" | "response" | undefined;

  /** Creates the report for one overlong line. */
  constructor(maxLineBytes: number, details: LineTooLongDetails = {}) {
    super("LINE_TOO_LONG", describeLineTooLong(maxLineBytes, details));
    this.name = "LineTooLongError";
    this.maxLineBytes = maxLineBytes;
    this.lineBytes = details.lineBytes;
    this.id = details.id;
    this.messageType = details.messageType;
    setErrorMarker(this, lineTooLongMarker);
  }

  /** True for a LineTooLongError from any installed copy of this package. */
  static override isInstance(value: unknown): value is LineTooLongError {
    return hasErrorMarker(value, lineTooLongMarker);
  }
}

function describeLineTooLong(maxLineBytes: number, details: LineTooLongDetails): string {
  const { id, messageType, lineBytes } = details;
  const what =
    id === undefined || messageType === undefined
      ? "A line"
      : messageType === "response"
        ? `The response to request ${JSON.stringify(id)}`
        : `Request ${JSON.stringify(id)}`;
  const size = lineBytes === undefined ? "" : ` of ${lineBytes} bytes`;
  return `${what}${size} is over the limit of ${maxLineBytes} bytes (maxLineBytes); dropped`;
}
