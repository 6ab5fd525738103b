import type { OAuthFetch, OAuthTokenStore } from "@patchbay/client";
import type { Transport } from "@patchbay/jsonrpc-core";
import {
  type BackendConfig,
  type BackendConnectContext,
  type BackendTransportFactory,
  type ConfigIssue,
  connectsPerPrincipal,
  type GatewayConfig,
  type RemoteBackendConfig,
} from "@patchbay/router";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { FallbackClientTransport, SseClientTransport } from "@patchbay/transport-sse";
import { createStdioClientTransport } from "@patchbay/transport-stdio";
import { createNodeWebSocketClientTransport } from "@patchbay/transport-ws";
import {
  type BackendOAuthOptions,
  createBackendOAuthFetch,
  createStoredTokenFetch,
} from "./oauth/backend-oauth.js";

/** Options of {@link createBackendTransportFactory}. */
export interface BackendTransportFactoryOptions {
  /**
   * Longest line read from a stdio backend whose config sets no `maxMessageBytes`, in UTF-8 bytes.
   * Default: `@patchbay/transport-stdio`'s (64 MiB).
   */
  readonly maxLineBytes?: number;
  /**
   * Receives each line a stdio backend writes to stderr, with the backend's config key. Default:
   * the line goes to this process's stderr prefixed with `[backend] ` (never to stdout, which may
   * carry the protocol).
   */
  readonly onStderr?: (backend: string, line: string) => void;
  /**
   * Keep the received text of a stdio backend's large results (lines of 64 KiB and more), so a
   * front of jsonrpc-core's framing writes it on as it came instead of serializing it again.
   * Default true: a gateway relays results unchanged.
   */
  readonly relayLargeResults?: boolean;
  /**
   * Where the backends with an `oauth` block find their tokens, and what a person must do to sign
   * in. Without it, such a backend is refused (never reached without its token).
   */
  readonly oauth?: BackendOAuthOptions;
  /**
   * Where a per-principal backend with an `oauth` block finds each principal's tokens (the
   * proxy's credential store, filled by a connect), and what a principal without them is told.
   */
  readonly principalOAuth?: PrincipalOAuthOptions;
}

/** The tokens of per-principal backends with an `oauth` block (see `createPrincipalConnect`). */
export interface PrincipalOAuthOptions {
  /** `principal`'s tokens for `backend`: read on each use, written on each refresh. */
  tokenStore(backend: string, principal: string): OAuthTokenStore;
  /** What a principal who has not connected (or whose refresh was refused) must do. */
  connectHint(backend: string, principal: string): string;
}

/**
 * The one way Patchbay's apps reach backends, by the config's `transport`: a child process over
 * stdio, Streamable HTTP, legacy HTTP+SSE, WebSocket (`ws://`, `wss://`), or `auto` (Streamable
 * HTTP, falling back to HTTP+SSE when the server answers 4xx). Hand it to `createRouter` as
 * `connect`.
 */
export function createBackendTransportFactory(
  options: BackendTransportFactoryOptions = {},
): BackendTransportFactory {
  const relayLargeResults = options.relayLargeResults ?? true;
  return (
    backend: BackendConfig,
    context?: BackendConnectContext,
  ): Transport | Promise<Transport> => {
    if (
      backend.transport !== "stdio" &&
      backend.transport !== "ws" &&
      backend.oauth !== undefined
    ) {
      return connectHttp(backend, (onSignedOut) =>
        signedInFetch(backend, context?.principal, options, onSignedOut),
      );
    }
    switch (backend.transport) {
      case "stdio": {
        const maxLineBytes = backend.maxMessageBytes ?? options.maxLineBytes;
        const onStderr = options.onStderr;
        return createStdioClientTransport({
          command: backend.command,
          args: backend.args,
          env: backend.env,
          name: backend.name,
          ...(backend.cwd === undefined ? {} : { cwd: backend.cwd }),
          ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
          ...(onStderr === undefined ? {} : { stderr: (line) => onStderr(backend.name, line) }),
          relayLargeResults,
        });
      }
      case "http":
        return new StreamableHttpClientTransport({ url: backend.url, headers: backend.headers });
      case "sse":
        return new SseClientTransport({ url: backend.url, headers: backend.headers });
      case "ws":
        return createNodeWebSocketClientTransport({ url: backend.url, headers: backend.headers });
      case "auto":
        return new FallbackClientTransport({ url: backend.url, headers: backend.headers });
    }
  };
}

/**
 * An HTTP backend that signs in: its transport's fetch sends the tokens of its token file. Signed
 * out while it runs (its refresh token refused), the transport closes once the failed request has
 * been answered, so the router starts it again and finds it waiting for a sign-in.
 */
async function connectHttp(
  backend: RemoteBackendConfig,
  signedIn: (onSignedOut: () => void) => Promise<OAuthFetch>,
): Promise<Transport> {
  let transport: Transport | undefined;
  const fetch = await signedIn(() => {
    setImmediate(() => void transport?.close());
  });
  const options = { url: backend.url, headers: backend.headers, fetch };
  transport =
    backend.transport === "sse"
      ? new SseClientTransport(options)
      : backend.transport === "http"
        ? new StreamableHttpClientTransport(options)
        : new FallbackClientTransport(options);
  return transport;
}

/**
 * The fetch that signs `backend`'s requests: a per-principal instance's with its principal's
 * tokens, any other with the token file of the person running the program.
 */
function signedInFetch(
  backend: RemoteBackendConfig,
  principal: string | undefined,
  options: BackendTransportFactoryOptions,
  onSignedOut: () => void,
): Promise<OAuthFetch> {
  if (principal !== undefined && connectsPerPrincipal(backend)) {
    const principalOAuth = options.principalOAuth;
    if (principalOAuth === undefined) throw new BackendSignInUnsupportedError(backend.name);
    return createStoredTokenFetch(
      backend,
      principalOAuth.tokenStore(backend.name, principal),
      principalOAuth.connectHint(backend.name, principal),
      onSignedOut,
    );
  }
  if (options.oauth === undefined) throw new BackendSignInUnsupportedError(backend.name);
  return createBackendOAuthFetch(backend, options.oauth, onSignedOut);
}

/**
 * A backend with an `oauth` block, from a factory made without `oauth` (a program that does not sign
 * in to backends): refused rather than reached without its token.
 */
export class BackendSignInUnsupportedError extends Error {
  override readonly name = "BackendSignInUnsupportedError";

  constructor(readonly backend: string) {
    super(
      `backend "${backend}" has an oauth block, but this program does not sign in to backends (the stdio gateway does: patchbay-gateway login ${backend})`,
    );
  }
}

/**
 * The config's backends that sign in (an `oauth` block), as config issues: a program that builds its
 * factory without `oauth` refuses such a config at start rather than fail each backend later. With
 * `perPrincipal` (the proxy: each principal connects on a link it is given), a per-principal
 * backend's `oauth` is accepted, but not its `redirectPort` (the redirect is the program's own).
 */
export function signInIssues(
  config: GatewayConfig,
  program: string,
  options: { readonly perPrincipal?: boolean } = {},
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const backend of config.backends) {
    if (backend.transport === "stdio" || backend.oauth === undefined) continue;
    const path = `mcpServers.${backend.name}.oauth`;
    if (options.perPrincipal === true && connectsPerPrincipal(backend)) {
      if (backend.oauth.redirectPort !== undefined) {
        issues.push({
          path: `${path}.redirectPort`,
          message: `${program} sends the browser back to its own /oauth/callback/${backend.name}: remove redirectPort`,
        });
      }
      continue;
    }
    issues.push({
      path,
      message:
        options.perPrincipal === true
          ? `${program} signs in to a backend with OAuth only per principal (each user connects their own account): add "isolation": "per-principal", or give this backend headers`
          : `${program} does not sign in to backends yet (patchbay-gateway does: patchbay-gateway login ${backend.name}); give this backend headers, or per-principal credentials`,
    });
  }
  return issues;
}
