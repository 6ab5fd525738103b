import type { McpErrorObject } from "./error-builders.js";
import { isImplementationDefinedErrorCode } from "./error-codes.js";

/*
 * Rule: a local failure (timeout, closed connection, cancelled call, a backend that is down) never
 * uses a code a peer could have sent. Locally it is a string-coded error (jsonrpc-core's
 * LocalError); when it must cross the wire (a gateway answering its client), it gets a code in the
 * implementation-defined range -32000..-32019, never a JSON-RPC or MCP code, so the receiver cannot
 * mistake it for the backend's own answer.
 */

/**
 * The wire error for a local failure. Throws a RangeError when `code` is outside -32000..-32019,
 * which is what keeps a local failure from borrowing a peer's code.
 */
export function createLocalFailureError<Data = undefined>(
  code: number,
  message: string,
  data?: Data,
): McpErrorObject<Data | undefined> {
  if (!isImplementationDefinedErrorCode(code)) {
    throw new RangeError(
      `Local failures must use an implementation-defined code (-32000..-32019), got ${code}`,
    );
  }
  return { code, message, data };
}

/**
 * Whether an error object may stand for a local failure: its code is implementation-defined.
 * A router checks this at its boundary before sending what it mapped.
 */
export function isLocalFailureCode(code: number): boolean {
  return isImplementationDefinedErrorCode(code);
}
