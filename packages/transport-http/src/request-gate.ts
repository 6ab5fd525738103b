import type { IncomingMessage } from "node:http";
import type { Authenticate, AuthenticateResult } from "./authenticate.js";
import { HTTP_ERROR_CODE, writeJsonError } from "./http-answers.js";
import type { HasHttpHeaders, HttpResponseSink } from "./http-io.js";
import { identityOf } from "./identity.js";
import type { OriginGuard } from "./origin-guard.js";

/** What every request of an HTTP transport handler passes before its method is looked at. */
export interface RequestGate<Request = IncomingMessage> {
  /** True once the handler is closing: requests get 503. */
  readonly closing: () => boolean;
  /** The Host/Origin check: a rejection gets 403 (`undefined`: any host and origin pass). */
  readonly guard: OriginGuard | undefined;
  /** The methods served; others get 405 with this list in `Allow`. */
  readonly allowedMethods: readonly string[];
  /** The optional authentication hook: a refusal gets 401/403 with `WWW-Authenticate`. */
  readonly authenticate?: Authenticate<Request> | undefined;
}

/**
 * The outcome of {@link admitRequest}: admitted with the hook's info and the caller's identity
 * (`undefined` without a hook, or when the hook says nothing about who called), or already answered.
 */
export type Admission =
  | { readonly admitted: true; readonly authInfo: unknown; readonly identity: string | undefined }
  | { readonly admitted: false };

/**
 * Runs the checks every request passes, in order: closing (503), Host/Origin (403), method (405 with
 * `Allow`), authentication (401/403). Answers the request itself when it is refused.
 */
export function admitRequest(
  request: IncomingMessage,
  response: HttpResponseSink,
  gate: RequestGate,
): Promise<Admission> {
  return admitHttpRequest(request, request, response, gate);
}

/** {@link admitRequest} for any runtime: `request` is read, `raw` goes to the hook. */
export async function admitHttpRequest<Request>(
  request: HasHttpHeaders & { readonly method?: string | undefined },
  raw: Request,
  response: HttpResponseSink,
  gate: RequestGate<Request>,
): Promise<Admission> {
  return (
    admitWithoutHook(request, response, gate) ?? (await authenticateRequest(raw, response, gate))
  );
}

/** Admitted without an `authenticate` hook: one object for every request. */
const ADMITTED: Admission = Object.freeze({
  admitted: true,
  authInfo: undefined,
  identity: undefined,
});

/**
 * The checks of {@link admitHttpRequest} that need no waiting: the admission (or refusal, already
 * answered), or `undefined` when the `authenticate` hook still has to run.
 */
export function admitWithoutHook<Request>(
  request: HasHttpHeaders & { readonly method?: string | undefined },
  response: HttpResponseSink,
  gate: RequestGate<Request>,
): Admission | undefined {
  if (gate.closing()) {
    writeJsonError(response, 503, HTTP_ERROR_CODE, "Service Unavailable: server is closing", {
      connection: "close",
    });
    return { admitted: false };
  }
  const rejection = gate.guard === undefined ? undefined : gate.guard(request);
  if (rejection !== undefined) {
    writeJsonError(response, 403, HTTP_ERROR_CODE, rejection.message);
    return { admitted: false };
  }
  if (!gate.allowedMethods.includes(request.method ?? "GET")) {
    writeJsonError(response, 405, HTTP_ERROR_CODE, "Method Not Allowed", {
      allow: gate.allowedMethods.join(", "),
    });
    return { admitted: false };
  }
  return gate.authenticate === undefined ? ADMITTED : undefined;
}

/**
 * The `authenticate` hook's part of {@link admitHttpRequest}: a promise only when the hook returned
 * one (a hook that answers at once costs the request no promise and no wait).
 */
export function authenticateRequest<Request>(
  raw: Request,
  response: HttpResponseSink,
  gate: RequestGate<Request>,
): Admission | Promise<Admission> {
  if (gate.authenticate === undefined) return ADMITTED;
  const result = gate.authenticate(raw);
  if (typeof (result as Partial<PromiseLike<unknown>>).then === "function") {
    return Promise.resolve(result).then((settled) => admissionOf(settled, response));
  }
  return admissionOf(result as AuthenticateResult, response);
}

/** The admission of what the `authenticate` hook returned; a refusal is answered here. */
function admissionOf(result: AuthenticateResult, response: HttpResponseSink): Admission {
  if (result.ok) {
    return {
      admitted: true,
      authInfo: result.info,
      identity: identityOf(result.identity, result.info),
    };
  }
  writeJsonError(
    response,
    result.status ?? 401,
    HTTP_ERROR_CODE,
    result.message ?? "Unauthorized",
    result.wwwAuthenticate === undefined ? {} : { "www-authenticate": result.wwwAuthenticate },
  );
  return { admitted: false };
}
