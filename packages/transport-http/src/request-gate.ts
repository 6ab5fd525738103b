import type { IncomingMessage } from "node:http";
import type { Authenticate, AuthenticateResult } from "./authenticate.js";
import {
  type HasHttpHeaders,
  HTTP_ERROR_CODE,
  type HttpResponseSink,
  headerOf,
  writeJsonError,
} from "./http-io.js";

/**
 * Request admission: what every request of an HTTP transport handler passes before its method is
 * looked at (closing, the Host/Origin guard, the method, the `authenticate` hook) and the identity a
 * session is bound to.
 */

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

/** Ids for `info` values that have no JSON form (cycles, BigInt): their object identity. */
const opaqueIds = new WeakMap<object, string>();
let nextOpaqueId = 0;
/** The last identity made from JSON, handed out again while callers keep coming with the same. */
let lastJsonIdentity = "";

/**
 * The identity a session is bound to: the hook's `identity`, else one derived from its `info`
 * (the string itself, or JSON with sorted keys); `undefined` when neither says who the caller is.
 */
export function identityOf(identity: string | undefined, info: unknown): string | undefined {
  if (identity !== undefined) return `id:${identity}`;
  if (info === undefined || info === null) return undefined;
  if (typeof info === "string") return `id:${info}`;
  // A frozen `info` (a gateway hands out one per token) says the same every time: its identity is
  // made once, not serialized with sorted keys per request.
  if (typeof info === "object" && Object.isFrozen(info)) {
    let frozen = frozenIdentities.get(info);
    if (frozen === undefined) {
      frozen = jsonIdentity(info);
      frozenIdentities.set(info, frozen);
    }
    return frozen;
  }
  return jsonIdentity(info);
}

/** Identities of frozen `info` objects, made once each. */
const frozenIdentities = new WeakMap<object, string>();

/** The identity of an `info` that is neither a string nor absent: its JSON, else its object. */
function jsonIdentity(info: unknown): string {
  try {
    const key = `json:${JSON.stringify(info, sortedKeys)}`;
    // Sessions of one caller share one string (each session keeps its identity).
    if (key !== lastJsonIdentity) lastJsonIdentity = key;
    return lastJsonIdentity;
  } catch {
    if (info === null || (typeof info !== "object" && typeof info !== "function"))
      return `value:${String(info)}`;
    let id = opaqueIds.get(info);
    if (id === undefined) {
      nextOpaqueId += 1;
      id = `opaque:${nextOpaqueId}`;
      opaqueIds.set(info, id);
    }
    return id;
  }
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

/** The host names accepted by default: loopback only, on any port. */
export const LOCALHOST_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** Which `Host` and `Origin` values a server accepts (DNS-rebinding protection). */
export interface OriginGuardOptions {
  /**
   * Accepted `Host` values: a host name (any port) or `host:port` (that port only), or `"any"` to
   * switch the check off. Defaults to {@link LOCALHOST_NAMES}.
   */
  readonly allowedHosts?: readonly string[] | "any";
  /**
   * Accepted `Origin` values: full origins (`https://app.example.com`), or `"any"`. A request without
   * `Origin` (not a browser) is always accepted. Defaults to http(s) origins on a loopback host.
   */
  readonly allowedOrigins?: readonly string[] | "any";
}

/** Why a request was refused by the guard; the handler answers 403 with the message. */
export interface OriginGuardRejection {
  readonly message: string;
}

/** Checks a request's `Host` and `Origin`; returns a rejection for a foreign one. */
export type OriginGuard = (request: HasHttpHeaders) => OriginGuardRejection | undefined;

function hostName(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith("[")) {
    const end = lower.indexOf("]");
    return end === -1 ? lower : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(":");
  return colon === -1 ? lower : lower.slice(0, colon);
}

/** `allowed` already in lower case. */
function hostMatches(host: string, allowed: readonly string[]): boolean {
  const lower = host.toLowerCase();
  return allowed.includes(lower) || allowed.includes(hostName(lower));
}

/**
 * The `Host`/`Origin` check of these options, or `undefined` when they allow any host and any origin
 * (behind a front that checked both already): then no request asks anything.
 */
export function originGuardOf(options: OriginGuardOptions = {}): OriginGuard | undefined {
  return options.allowedHosts === "any" && options.allowedOrigins === "any"
    ? undefined
    : createOriginGuard(options);
}

/** Creates the `Host`/`Origin` check (MCP 2025-11-25 transports: invalid Origin ⇒ 403). */
export function createOriginGuard(options: OriginGuardOptions = {}): OriginGuard {
  const configuredHosts = options.allowedHosts ?? LOCALHOST_NAMES;
  const allowedHosts =
    configuredHosts === "any" ? "any" : configuredHosts.map((entry) => entry.toLowerCase());
  const allowedOrigins = options.allowedOrigins;
  // The last `Host` accepted: a client sends the same one with every request.
  let acceptedHost: string | undefined;
  return (request) => {
    const host = headerOf(request.headers, "host");
    if (allowedHosts !== "any" && (host === undefined || host !== acceptedHost)) {
      if (host === undefined || !hostMatches(host, allowedHosts)) {
        return { message: `Forbidden: invalid Host: ${host ?? "(none)"}` };
      }
      acceptedHost = host;
    }
    const origin = headerOf(request.headers, "origin");
    if (origin === undefined || allowedOrigins === "any") return undefined;
    if (allowedOrigins !== undefined) {
      return allowedOrigins.includes(origin)
        ? undefined
        : { message: `Forbidden: invalid Origin: ${origin}` };
    }
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return { message: `Forbidden: invalid Origin: ${origin}` };
    }
    const loopback =
      (parsed.protocol === "http:" || parsed.protocol === "https:") &&
      LOCALHOST_NAMES.includes(parsed.hostname.toLowerCase());
    return loopback ? undefined : { message: `Forbidden: invalid Origin: ${origin}` };
  };
}
