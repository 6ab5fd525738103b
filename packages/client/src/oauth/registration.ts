import type { OAuthClientRegistration, TokenEndpointAuthMethod } from "./token-store.js";

/**
 * The token endpoint auth method to register with (RFC 7591): `none` (a public client, PKCE only)
 * when the authorization server offers it or names none, else the first secret-based method it
 * offers (`client_secret_basic` before `client_secret_post`).
 */
export function registrationAuthMethod(
  supported: readonly string[] | undefined,
): TokenEndpointAuthMethod {
  if (supported === undefined || supported.length === 0 || supported.includes("none")) {
    return "none";
  }
  if (supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  return "none";
}

/**
 * Many authorization servers issue a `client_secret` without the `client_secret_expires_at` that
 * RFC 7591 requires with it; oauth4webapi rejects such a response. This adds
 * `client_secret_expires_at: 0` (the secret does not expire) to a successful JSON registration
 * response that lacks it, and returns any other response unchanged.
 */
export async function withDefaultSecretExpiry(response: Response): Promise<Response> {
  if (response.status !== 201 && response.status !== 200) return response;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return response;
  }
  if (typeof body !== "object" || body === null) return response;
  const fields = body as Record<string, unknown>;
  if (typeof fields.client_secret !== "string" || "client_secret_expires_at" in fields) {
    return response;
  }
  await response.body?.cancel();
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...fields, client_secret_expires_at: 0 }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The `application_type` to register (OpenID Connect Dynamic Client Registration, asked for by
 * the MCP authorization spec): `native` for a loopback or custom-scheme redirect (a desktop or
 * command-line app), `web` for a redirect to an https site.
 */
export function applicationTypeFor(redirectUrl: URL): "native" | "web" {
  if (redirectUrl.protocol === "https:") {
    return LOOPBACK_HOSTS.has(redirectUrl.hostname) ? "native" : "web";
  }
  return "native";
}

/**
 * The client to use when the client has a metadata document URL (Client ID Metadata Documents)
 * and the authorization server says it fetches them: that URL is the `client_id` of a public
 * client. Otherwise undefined (a pre-registered client or dynamic registration is used).
 */
export function clientMetadataDocumentId(
  clientMetadataUrl: URL | undefined,
  authorizationServer: Readonly<Record<string, unknown>>,
): OAuthClientRegistration | undefined {
  if (clientMetadataUrl === undefined) return undefined;
  if (authorizationServer.client_id_metadata_document_supported !== true) return undefined;
  return { clientId: clientMetadataUrl.href, tokenEndpointAuthMethod: "none" };
}
