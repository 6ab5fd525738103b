import type { JSONRPCErrorObject } from "../messages.js";
import { errorMarker, hasErrorMarker, setErrorMarker } from "./error-marker.js";

const marker = errorMarker("JSONRPCError");

/**
 * A wire error: what a peer sent (or what this side sends) in the `error` member of a response.
 * Throw one from a request handler to send exactly this code, message and data.
 */
export class JSONRPCError extends Error {
  /** The numeric JSON-RPC error code. */
  readonly code: number;
  /** Extra information sent with the error, if any. */
  readonly data?: unknown;

  /** Creates a wire error; `data` is omitted from the wire when undefined. */
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "JSONRPCError";
    this.code = code;
    if (data !== undefined) this.data = data;
    setErrorMarker(this, marker);
  }

  /** True for a JSONRPCError (or subclass) from any installed copy of this package. */
  static isInstance(value: unknown): value is JSONRPCError {
    return hasErrorMarker(value, marker);
  }

  /** The error object as it goes on the wire: code, message and data, never a stack. */
  toJSON(): JSONRPCErrorObject {
    const object: JSONRPCErrorObject = { code: this.code, message: this.message };
    if (this.data !== undefined) object.data = this.data;
    return object;
  }
}
