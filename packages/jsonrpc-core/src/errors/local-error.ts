import { errorMarker, hasErrorMarker, setErrorMarker } from "./error-marker.js";

const marker = errorMarker("LocalError");

/** Options shared by every local error. */
export interface LocalErrorOptions {
  /** The underlying failure, if any. */
  cause?: unknown;
}

/**
 * A local error: something that went wrong on this side (a timeout, a closed connection, a broken
 * transport). It has a string `code` and a `cause`, and is never sent to a peer as if the peer had
 * produced it: `toJSON()` deliberately does not have the shape of a JSON-RPC error object.
 */
export class LocalError extends Error {
  /** A stable string code, such as `"REQUEST_TIMEOUT"`. */
  readonly code: string;

  /** Creates a local error with a string code and an optional cause. */
  constructor(code: string, message: string, options: LocalErrorOptions = {}) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.name = "LocalError";
    this.code = code;
    setErrorMarker(this, marker);
  }

  /** True for a LocalError (or subclass) from any installed copy of this package. */
  static isInstance(value: unknown): value is LocalError {
    return hasErrorMarker(value, marker);
  }

  /** For logs: name, string code and message (never a numeric JSON-RPC code). */
  toJSON(): { name: string; code: string; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}
