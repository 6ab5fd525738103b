import type { IncomingMessage, ServerResponse } from "node:http";
import { connectsPerPrincipal, type Router, setByUser } from "@patchbay/router";
import { BodyTooLargeError, readBody } from "@patchbay/transport-http";
import type { DashboardAuth } from "./dashboard-auth.js";
import { writeJson } from "./dashboard-http.js";
import { postingLogin } from "./pins-approval.js";

/** Largest body `POST <base>/api/connect` reads. */
const MAX_CONNECT_BODY_BYTES = 1024;

/**
 * Mints `principal`'s one-time link to connect to `backend` (sign in with OAuth, or enter its own
 * values): the proxy's connect or values link, as a tool call would give it.
 */
export type ConnectLinkMinter = (principal: string, backend: string) => string | undefined;

/** What the connect endpoint needs. */
export interface ConnectEndpointOptions {
  readonly auth: DashboardAuth;
  readonly router: Router;
  readonly mint: ConnectLinkMinter;
}

function backendNameOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { backend?: unknown };
    return typeof body.backend === "string" && body.backend !== "" ? body.backend : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `POST <base>/api/connect` `{"backend": "<name>"}`: a new one-time link for the login's own
 * principal to a per-principal backend that each user connects to (OAuth) or enters values for
 * (`setByUser`), answered `{"url": ...}` to that login only; never anyone else's link. 401 without
 * a login, 403 for the anonymous login of a dashboard without tokens, 404 for a backend that takes
 * no link, 400 for another body.
 */
export async function answerConnect(
  request: IncomingMessage,
  response: ServerResponse,
  options: ConnectEndpointOptions,
): Promise<void> {
  const identity = await postingLogin(request, response, options.auth);
  if (identity === undefined) return;
  if (!options.auth.enabled) {
    return writeJson(response, 403, { error: "anonymous logins connect to no backend" });
  }
  let text: string;
  try {
    text = await readBody(request, MAX_CONNECT_BODY_BYTES);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    return writeJson(response, 413, {
      error: `connect bodies are limited to ${MAX_CONNECT_BODY_BYTES} bytes`,
    });
  }
  const name = backendNameOf(text);
  if (name === undefined)
    return writeJson(response, 400, { error: 'expected {"backend": "<name>"}' });
  const backend = options.router.config.backends.find(
    (candidate) => candidate.name === name && candidate.isolation === "per-principal",
  );
  const linked = backend !== undefined && (connectsPerPrincipal(backend) || setByUser(backend));
  const url = linked ? options.mint(identity.name, name) : undefined;
  if (url === undefined) {
    return writeJson(response, 404, {
      error: `backend "${name}" takes no link: it is not a per-principal backend each user connects to or enters values for`,
    });
  }
  writeJson(response, 200, { url });
}
