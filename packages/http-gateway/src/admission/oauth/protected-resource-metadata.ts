import type { ResolvedOAuthConfig } from "./oauth-config.js";
import { type OAuthEndpoint, resourceUrl } from "./oauth-endpoint.js";
import { scopesForProfile } from "./scope-profiles.js";

/** An RFC 9728 Protected Resource Metadata document, as the gateway serves it. */
export interface ProtectedResourceMetadata {
  /** `<publicUrl><path>` exactly: clients compare it with the URL they connected to. */
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported: readonly string[];
  readonly bearer_methods_supported: readonly ["header"];
}

/**
 * The metadata document of one endpoint (`undefined`: the root document, whose resource is the
 * public URL). `scopes_supported` lists the scopes that open the endpoint's profile, so a client
 * that asks for all of them asks for no more than it needs; the root document lists every scope.
 * Tokens go only in the `Authorization` header (never a query string or form body).
 */
export function protectedResourceMetadata(
  config: Pick<ResolvedOAuthConfig, "issuers" | "publicUrl" | "scopes">,
  endpoint: OAuthEndpoint | undefined,
): ProtectedResourceMetadata {
  return {
    resource: resourceUrl(config.publicUrl, endpoint),
    authorization_servers: [...config.issuers],
    scopes_supported:
      endpoint === undefined
        ? [...config.scopes.keys()]
        : scopesForProfile(config.scopes, endpoint.profile),
    bearer_methods_supported: ["header"],
  };
}
