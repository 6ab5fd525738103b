import { type HasHttpHeaders, headerOf } from "./http-io.js";

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
