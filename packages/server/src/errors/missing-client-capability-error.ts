import { LocalError } from "@patchbay/jsonrpc-core";

const marker = Symbol.for("@patchbay/server/MissingClientCapabilityError");

/**
 * The server was asked to send a request the client did not declare a capability for (for example
 * `sampling/createMessage` without `sampling`). MCP: "Both parties MUST only use capabilities that
 * were successfully negotiated". Local: nothing was sent (`code: "MISSING_CLIENT_CAPABILITY"`).
 */
export class MissingClientCapabilityError extends LocalError {
  /** The capability path that is missing, such as `"sampling"` or `"elicitation.url"`. */
  readonly capability: string;

  /** Creates the error for the missing `capability` needed by `method`. */
  constructor(method: string, capability: string) {
    super(
      "MISSING_CLIENT_CAPABILITY",
      `Cannot send ${method}: the client did not declare the "${capability}" capability`,
    );
    this.name = "MissingClientCapabilityError";
    this.capability = capability;
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for a MissingClientCapabilityError from any installed copy of this package. */
  static override isInstance(value: unknown): value is MissingClientCapabilityError {
    return typeof value === "object" && value !== null && marker in value;
  }
}
