import { LocalError } from "@patchbay/jsonrpc-core";

const marker = Symbol.for("@patchbay/client/NotConnectedError");

/** A request was made before `connect()` finished or after `close()` (`code: "NOT_CONNECTED"`). */
export class NotConnectedError extends LocalError {
  /** Creates the error for the attempted `method`. */
  constructor(method: string) {
    super("NOT_CONNECTED", `Cannot send ${method}: the client is not connected`);
    this.name = "NotConnectedError";
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for a NotConnectedError from any installed copy of this package. */
  static override isInstance(value: unknown): value is NotConnectedError {
    return typeof value === "object" && value !== null && marker in value;
  }
}
