import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type BearerChallenge,
  createOAuthClient,
  type OAuthClientRegistration,
  type OAuthTokenStore,
  type OAuthTokens,
  parseBearerChallenge,
} from "@patchbay/client";
import {
  type BackendConfig,
  connectsPerPrincipal,
  type RemoteBackendConfig,
} from "@patchbay/router";
import { oauthClientSettings } from "./backend-oauth.js";
import {
  type ConnectFlowStore,
  createMemoryConnectFlowStore,
  type SignInOutcome,
} from "./connect-flow-store.js";
import { CONNECT_PATH, createLinkMint, linkTag } from "./link-mint.js";

/** Where a principal's tokens are kept: the proxy's credential store (values sealed). */
export interface PrincipalValueStore {
  valuesFor(principal: string, backend: string): Readonly<Record<string, string>> | undefined;
  /** Writes every value of `principal` for `backend` (none deletes them), seen at once. */
  replace(
    principal: string,
    backend: string,
    values: Readonly<Record<string, string>>,
  ): void | Promise<void>;
  /**
   * Runs `task` holding a lock every user of the same store respects (the replicas of a cluster),
   * the place's values read again first: a token refresh runs inside it, so a rotating refresh
   * token is spent once.
   */
  withLock?<T>(
    place: { readonly principal: string; readonly backend: string },
    task: () => Promise<T>,
  ): Promise<T>;
}

/** Options of {@link createPrincipalConnect}. */
export interface PrincipalConnectOptions {
  /** The origin browsers reach the program at (`https://mcp.example.com`), read on each use. */
  readonly origin: () => string;
  /** The config's backends now (read on each use, so a reload applies). */
  readonly backends: () => readonly BackendConfig[];
  readonly store: PrincipalValueStore;
  /**
   * Where links and sign-ins underway are kept. Default: this program's memory (the browser must
   * come back to it); a cluster's store lets any replica serve them.
   */
  readonly flows?: ConnectFlowStore;
  /** How long a connect link, and then the sign-in it starts, may take. Default 600 000 (10 min). */
  readonly linkTtlMs?: number;
  /** A principal finished connecting to a backend (its tokens are stored). */
  readonly onConnected?: (principal: string, backend: string) => void;
}

/** One principal's connect flows toward per-principal OAuth backends, served on the program's origin. */
export interface PrincipalConnect {
  /** A new one-time link on which `principal` connects to `backend`; `onConnected` once done. */
  connectUrl(principal: string, backend: string, onConnected?: () => void): string;
  /**
   * `principal`'s tokens for `backend`, in the store; tokens kept for another server URL than the
   * backend's now are deleted when read (the principal connects again).
   */
  tokenStore(backend: string, principal: string): OAuthTokenStore;
  /** True for the paths it serves: `/connect/<backend>` and `/oauth/callback/<backend>`. */
  handles(pathname: string): boolean;
  handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Ends the sign-ins underway. */
  close(): void;
}

const CALLBACK_PATH = "/oauth/callback/";
const UNKNOWN_SIGN_IN =
  "This sign-in is unknown, finished or expired: call the tool again for a new link.";

/**
 * The slots a principal's sign-in takes in the store: the two tokens each in its own (the store
 * masks every value it holds in logs), the rest as one JSON value.
 */
const SLOTS = {
  accessToken: "access_token",
  refreshToken: "refresh_token",
  /** {@link SignInDetails} as JSON. */
  details: "oauth",
} as const;

/** What a sign-in keeps beside its tokens. */
interface SignInDetails {
  /** The MCP server the tokens are for: a backend pointed at another server starts signed out. */
  readonly serverUrl?: string;
  readonly expiresAt?: number;
  readonly scope?: string;
  /** Dynamic registrations by issuer. */
  readonly clients?: Readonly<Record<string, OAuthClientRegistration>>;
}

/** A sign-in waiting (in this program) for the authorization server to send the browser back. */
interface PendingSignIn {
  readonly backend: string;
  readonly redirectUrl: string;
  readonly returned: (url: string) => void;
  readonly done: Promise<void>;
  readonly timer: NodeJS.Timeout;
  readonly abandon: (error: Error) => void;
}

/**
 * The connect flow of per-principal backends with an `oauth` block: a principal without a token is
 * given a link (unguessable, bound to that principal and backend, single use, short-lived); opening
 * it runs the authorization code flow with PKCE and a resource indicator toward the backend's
 * authorization server (found from its protected resource metadata), with the program's own
 * `/oauth/callback/<backend>` as the redirect, and stores the tokens under that principal.
 */
export function createPrincipalConnect(options: PrincipalConnectOptions): PrincipalConnect {
  const ttlMs = options.linkTtlMs ?? 600_000;
  const flows = options.flows ?? createMemoryConnectFlowStore();
  // Links minted here, and what to call once each connected its principal (by the link's tag).
  const links = createLinkMint(flows, ttlMs);
  // The sign-ins waiting in this program, by the OAuth `state` of the authorization request.
  const pending = new Map<string, PendingSignIn>();
  flows.serve((state, search) => finishSignIn(pending, state, search));

  const tokenStore = (backend: string, principal: string): OAuthTokenStore =>
    storeOf(options.store, { principal, backend, serverUrl: remoteBackend(backend)?.url });

  const connectUrl = (principal: string, backend: string, onConnected?: () => void): string =>
    links.mint({
      origin: options.origin(),
      principal,
      backend,
      ...(onConnected === undefined ? {} : { onUsed: onConnected }),
    });

  function remoteBackend(name: string): RemoteBackendConfig | undefined {
    const config = options.backends().find((backend) => backend.name === name);
    return config !== undefined && connectsPerPrincipal(config)
      ? (config as RemoteBackendConfig)
      : undefined;
  }

  /** Opens a link: starts the sign-in and sends the browser to the authorization server. */
  async function openLink(url: URL, backendName: string, response: ServerResponse): Promise<void> {
    const id = url.searchParams.get("link") ?? "";
    await links.saved();
    const link = id === "" ? undefined : await flows.spendLink(id);
    if (link === undefined || link.backend !== backendName) {
      page(
        response,
        400,
        "This connect link is unknown, used or expired: call the tool again for a new one.",
      );
      return;
    }
    const backend = remoteBackend(backendName);
    if (backend === undefined) {
      page(response, 404, `There is no backend ${backendName} to connect to.`);
      return;
    }
    const redirectUrl = new URL(
      `${CALLBACK_PATH}${encodeURIComponent(backend.name)}`,
      options.origin(),
    ).href;
    const started = await startSignIn(
      backend,
      redirectUrl,
      tokenStore(backend.name, link.principal),
    );
    if ("failed" in started) {
      page(response, 502, `Connecting to ${backend.name} failed: ${started.failed}`);
      return;
    }
    const { authorizationUrl: first, returned, abandon, done } = started;
    const state = first.searchParams.get("state") ?? "";
    const timer = setTimeout(() => {
      pending.delete(state);
      abandon(new Error("the sign-in took too long"));
    }, ttlMs);
    timer.unref();
    done.then(
      async () => {
        // The principal's other links to this backend are spent: it is connected.
        await flows.spendLinksOf(link.principal, backend.name).catch(() => {});
        options.onConnected?.(link.principal, backend.name);
        await flows.connected(linkTag(id)).catch(() => {});
      },
      () => {},
    );
    pending.set(state, { backend: backend.name, redirectUrl, returned, done, timer, abandon });
    try {
      await flows.saveSignIn(state, backend.name, ttlMs);
    } catch (error) {
      pending.delete(state);
      clearTimeout(timer);
      abandon(error as Error);
      page(response, 503, `Connecting to ${backend.name} failed: ${(error as Error).message}`);
      return;
    }
    response
      .writeHead(302, {
        location: first.href,
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
      })
      .end();
  }

  /** The authorization server sent the browser back: finishes the sign-in it belongs to. */
  async function callback(url: URL, backendName: string, response: ServerResponse): Promise<void> {
    const state = url.searchParams.get("state") ?? "";
    const signIn = state === "" ? undefined : await flows.spendSignIn(state);
    if (signIn === undefined || signIn.backend !== backendName) {
      page(response, 400, UNKNOWN_SIGN_IN);
      return;
    }
    const outcome = await signIn.finish(url.search).catch(
      (error: unknown): SignInOutcome => ({
        status: 502,
        text: `Connecting to ${backendName} failed: ${(error as Error).message}`,
      }),
    );
    page(response, outcome.status, outcome.text);
  }

  return {
    connectUrl,
    tokenStore,
    handles: (pathname) => pathname.startsWith(CONNECT_PATH) || pathname.startsWith(CALLBACK_PATH),
    async handleRequest(request, response) {
      const url = new URL(request.url ?? "/", "http://program");
      if (request.method !== "GET") {
        response.writeHead(405, { allow: "GET" }).end();
        return;
      }
      const at = url.pathname.startsWith(CONNECT_PATH) ? CONNECT_PATH : CALLBACK_PATH;
      const backend = decodeURIComponent(url.pathname.slice(at.length));
      await (at === CONNECT_PATH
        ? openLink(url, backend, response)
        : callback(url, backend, response));
    },
    close() {
      links.close();
      flows.close();
      for (const signIn of pending.values()) {
        clearTimeout(signIn.timer);
        signIn.abandon(new Error("the program is stopping"));
      }
      pending.clear();
    },
  };
}

/** Finishes the sign-in of `state` waiting in this program with the callback's query. */
async function finishSignIn(
  pending: Map<string, PendingSignIn>,
  state: string,
  search: string,
): Promise<SignInOutcome> {
  const signIn = pending.get(state);
  if (signIn === undefined) return { status: 400, text: UNKNOWN_SIGN_IN };
  pending.delete(state);
  clearTimeout(signIn.timer);
  const redirected = new URL(signIn.redirectUrl);
  redirected.search = search;
  signIn.returned(redirected.href);
  try {
    await signIn.done;
    return {
      status: 200,
      text: `Connected to ${signIn.backend}: go back to your MCP client and call again.`,
    };
  } catch (error) {
    return {
      status: 400,
      text: `Connecting to ${signIn.backend} failed: ${(error as Error).message}`,
    };
  }
}

/** A sign-in underway: where to send the browser, and how it ends. */
interface StartedSignIn {
  readonly authorizationUrl: URL;
  /** The browser came back to the redirect URL (with `code` and `state`). */
  readonly returned: (url: string) => void;
  readonly abandon: (error: Error) => void;
  /** Settles once the tokens are stored, or the sign-in failed. */
  readonly done: Promise<void>;
}

/**
 * Starts the authorization code flow toward `backend`'s authorization server (discovery,
 * registration when needed, PKCE, resource indicator): resolves with the authorization URL once
 * the flow is waiting for the browser, or with why it failed before that.
 */
async function startSignIn(
  backend: RemoteBackendConfig,
  redirectUrl: string,
  tokenStore: OAuthTokenStore,
): Promise<StartedSignIn | { readonly failed: string }> {
  let returned: (url: string) => void = () => {};
  let abandon: (error: Error) => void = () => {};
  const browserBack = new Promise<string>((resolve, reject) => {
    returned = resolve;
    abandon = reject;
  });
  let sendBrowser: (url: URL) => void = () => {};
  const authorizationUrl = new Promise<URL>((resolve) => {
    sendBrowser = resolve;
  });
  const client = createOAuthClient({
    serverUrl: backend.url,
    redirectUrl,
    authorize: (url) => {
      sendBrowser(url);
      return browserBack;
    },
    clientName: `Patchbay proxy (${backend.name})`,
    tokenStore,
    ...oauthClientSettings(backend),
  });
  const done = probe(backend.url).then((challenge) => client.signIn(challenge));
  // Discovery or registration may fail before any browser is sent anywhere.
  const first = await Promise.race([authorizationUrl, done.then(() => undefined)]).catch(
    (error: unknown) => error as Error,
  );
  if (first instanceof URL) return { authorizationUrl: first, returned, abandon, done };
  return { failed: first instanceof Error ? first.message : "no authorization request was made" };
}

/**
 * The challenge of the MCP server's 401 to a request without a token (its `resource_metadata` and
 * `scope`), or none: discovery then uses the well-known URLs.
 */
async function probe(url: string): Promise<BearerChallenge | undefined> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }),
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    return response.status === 401
      ? parseBearerChallenge(response.headers.get("www-authenticate"))
      : undefined;
  } catch {
    return undefined;
  }
}

/** A plain text page for the person's browser. */
function page(response: ServerResponse, status: number, text: string): void {
  response
    .writeHead(status, {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    })
    .end(`${text}\n`);
}

/** The token store of `principal` for `backend`, in the store's slots. */
function storeOf(
  store: PrincipalValueStore,
  place: {
    readonly principal: string;
    readonly backend: string;
    readonly serverUrl: string | undefined;
  },
): OAuthTokenStore {
  const { principal, backend, serverUrl } = place;
  const values = () => store.valuesFor(principal, backend) ?? {};
  const details = (): SignInDetails => {
    const text = values()[SLOTS.details];
    return text === undefined ? {} : (JSON.parse(text) as SignInDetails);
  };
  const write = (tokens: OAuthTokens | undefined, next: SignInDetails) => {
    const kept = { ...next, ...(serverUrl === undefined ? {} : { serverUrl }) };
    const written: Record<string, string> = { [SLOTS.details]: JSON.stringify(kept) };
    if (tokens !== undefined) {
      written[SLOTS.accessToken] = tokens.accessToken;
      if (tokens.refreshToken !== undefined) written[SLOTS.refreshToken] = tokens.refreshToken;
    }
    return store.replace(principal, backend, written);
  };
  const getTokens = (): OAuthTokens | undefined => {
    const current = values();
    const accessToken = current[SLOTS.accessToken];
    if (accessToken === undefined) return undefined;
    const { expiresAt, scope, serverUrl: keptFor } = details();
    if (keptFor !== serverUrl) {
      // Never sent to another server than the one that issued them: forgotten.
      Promise.resolve(store.replace(principal, backend, {})).catch(() => {});
      return undefined;
    }
    const refreshToken = current[SLOTS.refreshToken];
    return {
      accessToken,
      ...(refreshToken === undefined ? {} : { refreshToken }),
      ...(expiresAt === undefined ? {} : { expiresAt }),
      ...(scope === undefined ? {} : { scope }),
    };
  };
  const withLock = store.withLock?.bind(store);
  return {
    getTokens,
    ...(withLock === undefined
      ? {}
      : {
          withRefreshLock: <T>(refresh: () => Promise<T>) =>
            withLock({ principal, backend }, refresh),
        }),
    setTokens: (tokens) => {
      const { clients } = details();
      return write(tokens, {
        ...(clients === undefined ? {} : { clients }),
        ...(tokens?.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }),
        ...(tokens?.scope === undefined ? {} : { scope: tokens.scope }),
      });
    },
    getClient: (issuer) => details().clients?.[issuer],
    setClient: (issuer, client) => {
      const current = details();
      return write(getTokens(), { ...current, clients: { ...current.clients, [issuer]: client } });
    },
  };
}
