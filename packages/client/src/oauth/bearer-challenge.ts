/** What a resource server's `WWW-Authenticate: Bearer ...` challenge says (RFC 6750, RFC 9728). */
export interface BearerChallenge {
  /** `invalid_token`, `insufficient_scope`, `invalid_request` or another code. */
  readonly error?: string;
  /** The scopes the request needs (space-separated). */
  readonly scope?: string;
  /** The URL of the server's Protected Resource Metadata (RFC 9728 section 5.1). */
  readonly resourceMetadata?: string;
}

const PARAMETER = /([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]+))/g;

/** The parameters of the Bearer challenge in a `WWW-Authenticate` value, or undefined without one. */
export function parseBearerChallenge(header: string | null): BearerChallenge | undefined {
  if (header === null) return undefined;
  const start = header.search(/(^|[\s,])Bearer(\s|$)/i);
  if (start < 0) return undefined;
  const rest = header.slice(start).replace(/^[\s,]*Bearer/i, "");
  // The Bearer parameters end where the next scheme (a bare token followed by a space) begins.
  const end = rest.search(/,\s*[A-Za-z][\w-]*\s+[A-Za-z_][\w-]*\s*=/);
  const parameters: Record<string, string> = {};
  for (const match of (end < 0 ? rest : rest.slice(0, end)).matchAll(PARAMETER)) {
    const name = (match[1] as string).toLowerCase();
    parameters[name] = match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : (match[3] ?? "");
  }
  return {
    ...(parameters.error !== undefined && { error: parameters.error }),
    ...(parameters.scope !== undefined && { scope: parameters.scope }),
    ...(parameters.resource_metadata !== undefined && {
      resourceMetadata: parameters.resource_metadata,
    }),
  };
}
