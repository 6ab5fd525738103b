import { LocalError } from "@patchbay/jsonrpc-core";

const marker = Symbol.for("@patchbay/client/UnsupportedInputRequestError");

/**
 * A modern server's `input_required` result asked for input this client cannot give: a method with
 * no handler set, too many requests in one round, or a malformed result
 * (`code: "UNSUPPORTED_INPUT_REQUEST"`).
 */
export class UnsupportedInputRequestError extends LocalError {
  /** Creates the error with what was wrong. */
  constructor(message: string) {
    super("UNSUPPORTED_INPUT_REQUEST", message);
    this.name = "UnsupportedInputRequestError";
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for an UnsupportedInputRequestError from any installed copy of this package. */
  static override isInstance(value: unknown): value is UnsupportedInputRequestError {
    return typeof value === "object" && value !== null && marker in value;
  }
}
