/** What a request path names on the HTTP gateway. */
export type GatewayRoute =
  | { readonly kind: "mcp" | "sse" | "messages" | "ws"; readonly profile: string | undefined }
  | { readonly kind: "index" | "healthz" | "readyz" | "metrics" | "resource-metadata" }
  | { readonly kind: "pins" | "pins-approve" };

/** The RFC 9728 well-known prefix of Protected Resource Metadata (OAuth). */
const RESOURCE_METADATA_PREFIX = "/.well-known/oauth-protected-resource";

const profilePattern = /^[A-Za-z0-9_.-]+$/;

/**
 * Maps a path to an endpoint: `/mcp[/<profile>]` (Streamable HTTP), `/sse[/<profile>]` (legacy
 * stream), `/messages[/<profile>]` (legacy POSTs), `/ws[/<profile>]` (WebSocket), `/healthz`,
 * `/readyz`, `/metrics`, `/pins` and `/pins/approve` (the operator's pin API), `/` (the index), `/.well-known/oauth-protected-resource[/...]` (OAuth
 * Protected Resource Metadata, whose rest the gateway's verifier reads); else undefined.
 */
export function parseGatewayPath(pathname: string): GatewayRoute | undefined {
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  if (path === "/") return { kind: "index" };
  if (path === RESOURCE_METADATA_PREFIX || path.startsWith(`${RESOURCE_METADATA_PREFIX}/`)) {
    return { kind: "resource-metadata" };
  }
  if (path === "/healthz" || path === "/readyz" || path === "/metrics") {
    return { kind: path.slice(1) as "healthz" | "readyz" | "metrics" };
  }
  if (path === "/pins") return { kind: "pins" };
  if (path === "/pins/approve") return { kind: "pins-approve" };
  const [, first, second, ...rest] = path.split("/");
  if (rest.length > 0 || !isSessionEndpoint(first)) return undefined;
  if (second === undefined) return { kind: first, profile: undefined };
  let profile: string;
  try {
    profile = decodeURIComponent(second);
  } catch {
    return undefined;
  }
  return profilePattern.test(profile) ? { kind: first, profile } : undefined;
}

function isSessionEndpoint(name: string | undefined): name is "mcp" | "sse" | "messages" | "ws" {
  return name === "mcp" || name === "sse" || name === "messages" || name === "ws";
}
