import type { IncomingMessage, ServerResponse } from "node:http";
import { parsePinSelector, type Router } from "@patchbay/router";
import { BodyTooLargeError, readBody } from "@patchbay/transport-http";
import type { DashboardAuth } from "./dashboard-auth.js";
import { isSameOrigin, LOGIN_STORE_UNAVAILABLE, writeJson } from "./dashboard-http.js";

/** Largest body `POST <base>/api/pins/approve` reads. */
const MAX_APPROVE_BODY_BYTES = 16 * 1024;

/** What the approval endpoint needs. */
export interface PinApprovalOptions {
  readonly auth: DashboardAuth;
  readonly router: Router;
  /** Called with the pin names approved (the dashboard refreshes its pages). */
  readonly onApproved: (names: readonly string[]) => void;
}

/**
 * Why a request may not change anything, before its login is looked at: a browser's request must
 * carry its page's own `Origin` (a login cookie rides along on any request the browser makes, so a
 * missing `Origin` is refused too); a script with `Authorization: Bearer` sends no cookie and may
 * leave it out. The JSON content type keeps plain HTML forms of other sites out as well.
 */
export function csrfRefusal(
  request: IncomingMessage,
): { status: number; error: string } | undefined {
  if (!isSameOrigin(request)) return { status: 403, error: "cross-origin request" };
  if (request.headers.origin === undefined && request.headers.authorization === undefined) {
    return { status: 403, error: "a request made with the login cookie must carry its Origin" };
  }
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    return { status: 415, error: "expected a JSON body (content-type: application/json)" };
  }
  return undefined;
}

/**
 * The login behind a state-changing `POST` of the page (same origin, JSON), or undefined once the
 * refusal is answered (403/415, 503 when the login store cannot be reached, 401 without a login).
 */
export async function postingLogin(
  request: IncomingMessage,
  response: ServerResponse,
  auth: DashboardAuth,
): Promise<NonNullable<Awaited<ReturnType<DashboardAuth["identify"]>>> | undefined> {
  const refusal = csrfRefusal(request);
  if (refusal !== undefined) {
    writeJson(response, refusal.status, { error: refusal.error });
    return undefined;
  }
  let identity: Awaited<ReturnType<DashboardAuth["identify"]>>;
  try {
    identity = await auth.identify(request);
  } catch {
    writeJson(response, 503, { error: LOGIN_STORE_UNAVAILABLE });
    return undefined;
  }
  if (identity === undefined) writeJson(response, 401, { error: "log in first" });
  return identity;
}

/**
 * `POST <base>/api/pins/approve`: `{"tool": "<exposed name>"}` or `{"backend": "<key>", "all": true}`,
 * for a login (or bearer token) of an operator's token only (403 for anyone else); answers
 * `{"approved": [...names]}`, or 404 when nothing withheld matches.
 */
export async function answerPinApproval(
  request: IncomingMessage,
  response: ServerResponse,
  options: PinApprovalOptions,
): Promise<void> {
  const identity = await postingLogin(request, response, options.auth);
  if (identity === undefined) return;
  if (identity.operator !== true) {
    return writeJson(response, 403, {
      error: "only an operator's token (operator: true) may approve pins",
    });
  }
  let text: string;
  try {
    text = await readBody(request, MAX_APPROVE_BODY_BYTES);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    return writeJson(response, 413, {
      error: `approval bodies are limited to ${MAX_APPROVE_BODY_BYTES} bytes`,
    });
  }
  const selector = parsePinSelector(text);
  if (selector === undefined) {
    return writeJson(response, 400, {
      error: 'expected {"tool": "<exposed name>"} or {"backend": "<key>", "all": true}',
    });
  }
  const approved = await options.router.pins.approve(selector);
  if (approved.length === 0) {
    const what = "name" in selector ? `"${selector.name}"` : `backend "${selector.backend}"`;
    return writeJson(response, 404, {
      error: `nothing withheld matches ${what}: it was approved already, or never withheld`,
    });
  }
  options.router.telemetry.record({
    event_type: "pins.approved",
    data: { names: approved, by: identity.name, via: "dashboard" },
  });
  options.onApproved(approved);
  writeJson(response, 200, { approved });
}
