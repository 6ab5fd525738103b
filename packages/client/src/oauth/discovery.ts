import * as oauth from "oauth4webapi";
import { OAuthError } from "../errors/oauth-error.js";

/** The fetch function the OAuth client uses (the global `fetch` by default). */
export type OAuthFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** What discovery learnt about an MCP server: its resource identifier and authorization server. */
export interface DiscoveredServer {
  /** The canonical resource URL (RFC 8707 `resource`), from the metadata's `resource`. */
  readonly resource: string;
  /** The metadata's `scopes_supported`, if any. */
  readonly scopesSupported?: readonly string[];
  readonly authorizationServer: oauth.AuthorizationServer;
}

interface DiscoveryContext {
  readonly fetch: OAuthFetch;
  readonly allowInsecureHttp: boolean;
}

/** The Protected Resource Metadata URLs to try: the challenge's, else path-aware then root. */
export function protectedResourceMetadataUrls(serverUrl: URL, fromChallenge?: string): URL[] {
  if (fromChallenge !== undefined) return [new URL(fromChallenge, serverUrl)];
  const root = new URL("/.well-known/oauth-protected-resource", serverUrl);
  const path = serverUrl.pathname.replace(/\/$/, "");
  if (path === "") return [root];
  return [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl), root];
}

/**
 * The authorization server metadata URLs in the MCP specification's order: RFC 8414 then OpenID
 * Connect Discovery; for an issuer with a path, OAuth and OIDC with the path inserted after the
 * well-known segment, then OIDC with it appended.
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, "");
  if (path === "") {
    return [
      new URL("/.well-known/oauth-authorization-server", issuer),
      new URL("/.well-known/openid-configuration", issuer),
    ];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer),
    new URL(`/.well-known/openid-configuration${path}`, issuer),
    new URL(`${path}/.well-known/openid-configuration`, issuer),
  ];
}

/**
 * True when `resource` may name `serverUrl`: same origin, and the server's path is the
 * resource's path or lies below it (a server at `/mcp` may use `https://host/` or `https://host/mcp`).
 */
export function resourceCoversServer(resource: URL, serverUrl: URL): boolean {
  if (resource.origin !== serverUrl.origin) return false;
  const base = resource.pathname.endsWith("/") ? resource.pathname : `${resource.pathname}/`;
  const path = serverUrl.pathname.endsWith("/") ? serverUrl.pathname : `${serverUrl.pathname}/`;
  return path.startsWith(base);
}

function checkProtocol(url: URL, context: DiscoveryContext): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && context.allowInsecureHttp) return;
  throw new OAuthError(`Refusing ${url.protocol} URL ${url.origin}: OAuth needs https`);
}

async function getJson(url: URL, context: DiscoveryContext): Promise<Response | undefined> {
  checkProtocol(url, context);
  const response = await context.fetch(url, {
    headers: { accept: "application/json" },
    redirect: "error",
  });
  if (response.ok) return response;
  await response.body?.cancel();
  return undefined;
}

interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported?: readonly string[];
}

function readProtectedResourceMetadata(body: unknown): ProtectedResourceMetadata | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { resource, authorization_servers, scopes_supported } = body as Record<string, unknown>;
  if (typeof resource !== "string") return undefined;
  if (!Array.isArray(authorization_servers) || authorization_servers.length === 0) return undefined;
  if (!authorization_servers.every((entry) => typeof entry === "string")) return undefined;
  const scopes =
    Array.isArray(scopes_supported) && scopes_supported.every((entry) => typeof entry === "string")
      ? (scopes_supported as string[])
      : undefined;
  return {
    resource,
    authorizationServers: authorization_servers as string[],
    ...(scopes !== undefined && { scopesSupported: scopes }),
  };
}

/** The metadata, or undefined when none of the well-known URLs has any (a 2025-03-26 server). */
async function fetchProtectedResourceMetadata(
  serverUrl: URL,
  fromChallenge: string | undefined,
  context: DiscoveryContext,
): Promise<ProtectedResourceMetadata | undefined> {
  for (const url of protectedResourceMetadataUrls(serverUrl, fromChallenge)) {
    const response = await getJson(url, context);
    if (response === undefined) continue;
    const metadata = readProtectedResourceMetadata(await response.json().catch(() => undefined));
    if (metadata === undefined) {
      throw new OAuthError(`Protected resource metadata at ${url.href} is not valid`);
    }
    return metadata;
  }
  if (fromChallenge !== undefined) {
    throw new OAuthError(`No protected resource metadata found at ${fromChallenge}`);
  }
  return undefined;
}

async function fetchAuthorizationServer(
  issuer: URL,
  context: DiscoveryContext,
): Promise<oauth.AuthorizationServer> {
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const response = await getJson(url, context);
    if (response === undefined) continue;
    try {
      return await oauth.processDiscoveryResponse(issuer, response);
    } catch (error) {
      throw new OAuthError(
        `Authorization server metadata at ${url.href} is not valid for issuer ${issuer.href}: ${messageOf(error)}`,
      );
    }
  }
  throw new OAuthError(`No authorization server metadata found for issuer ${issuer.href}`);
}

/**
 * Discovers the resource identifier and authorization server of the MCP server at `serverUrl`
 * (RFC 9728, then RFC 8414 or OpenID Connect Discovery), checking that the metadata's `resource`
 * covers the server URL and that the authorization server's `issuer` is the one listed.
 */
export async function discoverServer(
  serverUrl: URL,
  resourceMetadataUrl: string | undefined,
  context: DiscoveryContext,
): Promise<DiscoveredServer> {
  const metadata = await fetchProtectedResourceMetadata(serverUrl, resourceMetadataUrl, context);
  if (metadata === undefined) return discoverLegacyServer(serverUrl, context);
  const resource = parseUrl(metadata.resource);
  if (resource === null || !resourceCoversServer(resource, serverUrl)) {
    throw new OAuthError(
      `Protected resource metadata names resource ${metadata.resource}, which does not cover ${serverUrl.href}`,
    );
  }
  const issuer = parseUrl(metadata.authorizationServers[0] as string);
  if (issuer === null) throw new OAuthError("Protected resource metadata names no valid issuer");
  return {
    resource: metadata.resource,
    ...(metadata.scopesSupported !== undefined && { scopesSupported: metadata.scopesSupported }),
    authorizationServer: await fetchAuthorizationServer(issuer, context),
  };
}

/**
 * Discovery as the 2025-03-26 revision had it, for a server without protected resource metadata:
 * the authorization base URL is the server's origin (its path dropped), whose RFC 8414 metadata is
 * read at the root well-known URL, else the default endpoints `/authorize`, `/token` and
 * `/register` there. That revision lists no issuer to check the metadata's `issuer` against, so it
 * is taken as written; every endpoint must still be https (or http when allowed).
 */
async function discoverLegacyServer(
  serverUrl: URL,
  context: DiscoveryContext,
): Promise<DiscoveredServer> {
  const base = new URL(serverUrl.origin);
  const metadataUrl = new URL("/.well-known/oauth-authorization-server", base);
  const response = await getJson(metadataUrl, context);
  const authorizationServer =
    response === undefined
      ? defaultEndpoints(base)
      : readLegacyMetadata(await response.json().catch(() => undefined), metadataUrl);
  for (const key of [
    "authorization_endpoint",
    "token_endpoint",
    "registration_endpoint",
  ] as const) {
    const endpoint = authorizationServer[key];
    if (endpoint !== undefined) checkProtocol(new URL(endpoint), context);
  }
  return { resource: serverUrl.href, authorizationServer };
}

function defaultEndpoints(base: URL): oauth.AuthorizationServer {
  return {
    issuer: base.origin,
    authorization_endpoint: new URL("/authorize", base).href,
    token_endpoint: new URL("/token", base).href,
    registration_endpoint: new URL("/register", base).href,
    // The revision required PKCE with S256 of every client and server.
    code_challenge_methods_supported: ["S256"],
  };
}

function readLegacyMetadata(body: unknown, url: URL): oauth.AuthorizationServer {
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const endpoints = ["authorization_endpoint", "token_endpoint"].map((key) => fields[key]);
  if (typeof fields.issuer !== "string" || !endpoints.every(isUrl)) {
    throw new OAuthError(`Authorization server metadata at ${url.href} is not valid`);
  }
  if (fields.registration_endpoint !== undefined && !isUrl(fields.registration_endpoint)) {
    throw new OAuthError(`Authorization server metadata at ${url.href} is not valid`);
  }
  return fields as oauth.AuthorizationServer;
}

function isUrl(value: unknown): value is string {
  return typeof value === "string" && parseUrl(value) !== null;
}

/** The message of an error from oauth4webapi or fetch (never its cause, which may hold a response). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
