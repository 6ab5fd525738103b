import { LocalError } from "@patchbay/jsonrpc-core";

const marker = Symbol.for("@patchbay/client/OAuthError");

/**
 * Signing in to an MCP server failed (`code: "OAUTH_FAILED"`): discovery, registration, the
 * authorization response, a token request or a step-up. The message never holds a token, a
 * client secret or an authorization code, and no cause is attached (a library's error may hold
 * the raw response).
 */
export class OAuthError extends LocalError {
  /** Creates the error; `message` says which step failed and why. */
  constructor(message: string) {
    super("OAUTH_FAILED", message);
    this.name = "OAuthError";
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for an OAuthError from any installed copy of this package. */
  static override isInstance(value: unknown): value is OAuthError {
    return typeof value === "object" && value !== null && marker in value;
  }
}
