/**
 * One protected endpoint: its resource path (`/mcp`, `/mcp/<profile>`, `/sse/<profile>`, `/ws`) and
 * the profile it serves (`undefined`: the default endpoint, every backend).
 */
export interface OAuthEndpoint {
  readonly path: string;
  readonly profile: string | undefined;
}

/** The RFC 9728 well-known prefix of Protected Resource Metadata. */
export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

const endpointPath = /^\/(mcp|sse|messages|ws)(?:\/([^/]+))?$/;
const profileName = /^[A-Za-z0-9_.-]+$/;

/**
 * The protected endpoint a request path belongs to, or `undefined` for any other path. Legacy
 * `/messages[/<profile>]` POSTs belong to the `/sse[/<profile>]` stream they answer, so a token for
 * that stream's resource is the one they carry.
 */
export function oauthEndpointForPath(pathname: string): OAuthEndpoint | undefined {
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  const match = endpointPath.exec(path);
  if (!match) return undefined;
  const kind = match[1] === "messages" ? "sse" : (match[1] as string);
  if (match[2] === undefined) return { path: `/${kind}`, profile: undefined };
  let profile: string;
  try {
    profile = decodeURIComponent(match[2]);
  } catch {
    return undefined;
  }
  return profileName.test(profile) ? { path: `/${kind}/${profile}`, profile } : undefined;
}

/** The endpoint's resource identifier (RFC 8707): `<publicUrl><path>`, byte for byte. */
export function resourceUrl(publicUrl: string, endpoint: OAuthEndpoint | undefined): string {
  return `${publicUrl}${endpoint?.path ?? ""}`;
}

/**
 * Where the endpoint's Protected Resource Metadata is served: the well-known segment goes between
 * the host and the resource's path (RFC 9728 section 3.1), so a public URL with a path keeps it
 * after the segment. `undefined` names the root document (the resource `<publicUrl>` itself).
 */
export function resourceMetadataUrl(
  publicUrl: string,
  endpoint: OAuthEndpoint | undefined,
): string {
  const url = new URL(publicUrl);
  const basePath = url.pathname === "/" ? "" : url.pathname;
  return `${url.origin}${PROTECTED_RESOURCE_METADATA_PATH}${basePath}${endpoint?.path ?? ""}`;
}

/**
 * Maps a request path such as `/.well-known/oauth-protected-resource/mcp/team` to the endpoint whose
 * metadata it asks for: `{ endpoint: undefined }` for the root document, `undefined` when the path
 * is no metadata path of this gateway. The public URL's own path may appear after the well-known
 * segment (as RFC 9728 builds it) or be absent (a reverse proxy that strips it).
 */
export function endpointForMetadataPath(
  publicUrl: string,
  pathname: string,
): { readonly endpoint: OAuthEndpoint | undefined } | undefined {
  if (pathname !== PROTECTED_RESOURCE_METADATA_PATH) {
    if (!pathname.startsWith(`${PROTECTED_RESOURCE_METADATA_PATH}/`)) return undefined;
  }
  let rest = pathname.slice(PROTECTED_RESOURCE_METADATA_PATH.length);
  const basePath = new URL(publicUrl).pathname.replace(/\/$/, "");
  if (basePath !== "" && (rest === basePath || rest.startsWith(`${basePath}/`))) {
    rest = rest.slice(basePath.length);
  }
  if (rest === "" || rest === "/") return { endpoint: undefined };
  const endpoint = oauthEndpointForPath(rest);
  // Only the canonical form of a path names a document: `/messages` has none of its own.
  return endpoint !== undefined && endpoint.path === rest.replace(/\/$/, "")
    ? { endpoint }
    : undefined;
}
