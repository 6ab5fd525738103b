import { TransportError } from "@patchbay/jsonrpc-core";

const httpStatusMarker = Symbol.for("@patchbay/transport-http/HttpStatusError");
const sessionExpiredMarker = Symbol.for("@patchbay/transport-http/SessionExpiredError");

function hasMarker(value: unknown, marker: symbol): boolean {
  return typeof value === "object" && value !== null && marker in value;
}

/** An HTTP request of a client transport got a non-success status (local error). */
export class HttpStatusError extends TransportError {
  /** The HTTP status code. */
  readonly status: number;
  /** The response body as text (often a JSON-RPC error object), possibly empty. */
  readonly body: string;
  /** The `WWW-Authenticate` challenge of a 401/403, when the server sent one. */
  readonly wwwAuthenticate: string | undefined;

  /** Creates the error for one failed HTTP exchange. */
  constructor(
    message: string,
    init: { status: number; body: string; wwwAuthenticate?: string | undefined; cause?: unknown },
  ) {
    super(message, "cause" in init ? { cause: init.cause } : {});
    this.name = "HttpStatusError";
    this.status = init.status;
    this.body = init.body;
    this.wwwAuthenticate = init.wwwAuthenticate;
    Object.defineProperty(this, httpStatusMarker, { value: true });
  }

  /** True for an HttpStatusError from any installed copy of this package. */
  static override isInstance(value: unknown): value is HttpStatusError {
    return hasMarker(value, httpStatusMarker);
  }
}

/**
 * The server answered 404 for the session this client held: the session ended or expired. Start a
 * new one by sending `initialize` again; the transport has already forgotten the old id.
 */
export class SessionExpiredError extends HttpStatusError {
  /** The session id that is no longer valid. */
  readonly sessionId: string;

  /** Creates the error for one expired session. */
  constructor(sessionId: string, body: string) {
    super(`MCP session ${sessionId} has expired or was ended by the server (HTTP 404)`, {
      status: 404,
      body,
    });
    this.name = "SessionExpiredError";
    this.sessionId = sessionId;
    Object.defineProperty(this, sessionExpiredMarker, { value: true });
  }

  /** True for a SessionExpiredError from any installed copy of this package. */
  static override isInstance(value: unknown): value is SessionExpiredError {
    return hasMarker(value, sessionExpiredMarker);
  }
}
