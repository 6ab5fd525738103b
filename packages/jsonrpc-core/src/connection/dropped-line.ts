import { ErrorCode } from "../errors/error-code.js";
import type { LineTooLongError } from "../errors/transport-errors.js";
import type { JSONRPCErrorResponse } from "../messages.js";
import type { OutgoingRequests } from "./outgoing-requests.js";

/**
 * A message too long to read still gets its one answer when its id is known: the pending request
 * a dropped response was for fails at once with the LineTooLongError (instead of waiting for its
 * timeout), and a dropped request is answered with -32600 naming the limit.
 */
export function answerDroppedLine(
  error: LineTooLongError,
  outgoing: OutgoingRequests,
  send: (response: JSONRPCErrorResponse) => void,
): void {
  const id = error.id;
  if (id === undefined) return;
  if (error.messageType === "response") outgoing.fail(id, error);
  if (error.messageType === "request") {
    const size = error.lineBytes === undefined ? "" : `${error.lineBytes} bytes, `;
    send({
      jsonrpc: "2.0",
      id,
      error: {
        code: ErrorCode.InvalidRequest,
        message: `Request too large: ${size}over the limit of ${error.maxLineBytes} bytes`,
        data: { maxLineBytes: error.maxLineBytes, lineBytes: error.lineBytes },
      },
    });
  }
}
