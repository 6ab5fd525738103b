import type { IncomingMessage, ServerResponse } from "node:http";
import { clientAddress, type RateLimiter, type SharedRateLimiter } from "@patchbay/http-gateway";
import { readBody } from "@patchbay/transport-http";
import { DASHBOARD_COOKIE, type DashboardAuth } from "./dashboard-auth.js";
import { SECURITY_HEADERS, type StaticAssets } from "./static-assets.js";

/** What the login and logout endpoints need. */
export interface LoginEndpointsOptions {
  readonly basePath: string;
  readonly auth: DashboardAuth;
  readonly assets: StaticAssets;
  /** Login attempts per client address (in a cluster, buckets shared by the replicas). */
  readonly limiter: RateLimiter | SharedRateLimiter;
  readonly trustProxy: boolean;
  readonly loginTtlMs: number;
  /** Add `Secure` to the cookie (when served over HTTPS). */
  readonly secureCookie: boolean;
}

const maxLoginBodyBytes = 4096;

/** True when a request's `Origin`, if any, is the page's own (a form or script from elsewhere is not). */
export function isSameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const host = request.headers.host ?? "";
  return origin === `http://${host}` || origin === `https://${host}`;
}

/** The answer when the login store (Redis, in a cluster) cannot be reached. */
export const LOGIN_STORE_UNAVAILABLE =
  "the dashboard's login store cannot be reached; try again shortly";

/** Writes a small JSON answer with the dashboard's headers. */
export function writeJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { ...SECURITY_HEADERS, "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/** The login page, with a fixed message (never an echo of what was typed). */
export async function serveLogin(
  assets: StaticAssets,
  response: ServerResponse,
  status: number,
  message: string,
): Promise<void> {
  const page = (await assets.text("login.html")).replace("<!--message-->", message);
  await assets.serve(response, "login.html", status, page);
}

function redirect(response: ServerResponse, location: string, cookie: string): void {
  response.writeHead(303, { ...SECURITY_HEADERS, location, "set-cookie": cookie });
  response.end();
}

/** `POST <base>/login` (form field `token`) and `POST <base>/logout`. */
export async function answerLogin(
  request: IncomingMessage,
  response: ServerResponse,
  action: "login" | "logout",
  options: LoginEndpointsOptions,
): Promise<void> {
  const { basePath, auth, assets } = options;
  const attributes = `Path=${basePath}; HttpOnly; SameSite=Strict${options.secureCookie ? "; Secure" : ""}`;
  if (!isSameOrigin(request)) return writeJson(response, 403, { error: "cross-origin request" });
  if (action === "logout") {
    const cleared = `${DASHBOARD_COOKIE}=; ${attributes}; Max-Age=0`;
    try {
      await auth.logout(request);
    } catch {
      // The browser forgets the cookie, but the login could not be ended everywhere: say so.
      response.writeHead(503, {
        ...SECURITY_HEADERS,
        "content-type": "application/json",
        "retry-after": "1",
        "set-cookie": cleared,
      });
      response.end(JSON.stringify({ error: LOGIN_STORE_UNAVAILABLE }));
      return;
    }
    return redirect(response, basePath, cleared);
  }
  const taken = await options.limiter.take(`login ${clientAddress(request, options.trustProxy)}`);
  if (!taken.allowed) {
    return serveLogin(assets, response, 429, "Too many attempts: wait a minute and try again.");
  }
  let body: string;
  try {
    body = await readBody(request, maxLoginBodyBytes);
  } catch {
    return writeJson(response, 413, {
      error: `login bodies are limited to ${maxLoginBodyBytes} bytes`,
    });
  }
  const token = new URLSearchParams(body).get("token") ?? "";
  let id: string | undefined;
  try {
    id = await auth.login(token);
  } catch {
    return writeJson(response, 503, { error: LOGIN_STORE_UNAVAILABLE });
  }
  if (id === undefined) {
    return serveLogin(
      assets,
      response,
      401,
      "That token is not accepted here (it must be valid and allowed every backend).",
    );
  }
  const maxAge = Math.floor(options.loginTtlMs / 1000);
  redirect(response, basePath, `${DASHBOARD_COOKIE}=${id}; ${attributes}; Max-Age=${maxAge}`);
}
