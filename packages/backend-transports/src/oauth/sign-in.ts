import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createOAuthClient } from "@patchbay/client";
import type { RemoteBackendConfig } from "@patchbay/router";
import { backendTokenStore, oauthClientSettings } from "./backend-oauth.js";

/** Options of {@link signInToBackend}. */
export interface SignInOptions {
  /** The directory of the token files (`userConfigDirectory()`). */
  readonly directory: string;
  /** Shows the person the authorization URL (print it, open a browser). */
  readonly onAuthorizationUrl: (url: URL) => void;
  /** How long to wait for the browser to come back. Default 300 000 ms (5 minutes). */
  readonly timeoutMs?: number;
}

/** The page the browser lands on once the authorization server sent it back. */
const LANDING_PAGE = "Signed in to Patchbay; you can close this tab.\n";

/** A one-shot loopback listener: resolves with the first request's full URL to `/callback`. */
class LoopbackRedirect {
  readonly #server: Server = createServer();
  readonly received: Promise<string>;

  constructor() {
    this.received = new Promise((resolve) => {
      this.#server.on("request", (request, response) => {
        const url = new URL(request.url ?? "/", this.url);
        if (url.pathname !== "/callback") {
          response.writeHead(404).end();
          return;
        }
        response.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(LANDING_PAGE);
        resolve(url.href);
      });
    });
  }

  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(port, "127.0.0.1", resolve);
    });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/callback`;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

function describeDuration(milliseconds: number): string {
  return milliseconds < 1000 ? `${milliseconds} ms` : `${Math.round(milliseconds / 1000)} s`;
}

/** Rejects after `timeoutMs` with what to do; the timer is cleared by `clear`. */
function deadline(timeoutMs: number): { expired: Promise<never>; clear: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `no sign-in came back within ${describeDuration(timeoutMs)}; open the URL above in a browser and run the command again`,
          ),
        ),
      timeoutMs,
    );
  });
  return { expired, clear: () => clearTimeout(timer) };
}

/**
 * Signs in to a backend with an `oauth` block once: a loopback listener on 127.0.0.1 (the
 * `redirectPort`, else one the OS picks), the authorization URL handed to `onAuthorizationUrl`,
 * the code exchanged (PKCE, resource indicator) and the tokens written to the backend's token file.
 */
export async function signInToBackend(
  backend: RemoteBackendConfig,
  options: SignInOptions,
): Promise<void> {
  const redirect = new LoopbackRedirect();
  await redirect.listen(backend.oauth?.redirectPort ?? 0);
  // Bounds the wait for the browser, from the moment the URL is shown.
  let timer: ReturnType<typeof deadline> | undefined;
  try {
    const client = createOAuthClient({
      serverUrl: backend.url,
      redirectUrl: redirect.url,
      authorize: async (url) => {
        timer = deadline(options.timeoutMs ?? 300_000);
        options.onAuthorizationUrl(url);
        return await Promise.race([redirect.received, timer.expired]);
      },
      clientName: `Patchbay gateway (${backend.name})`,
      tokenStore: backendTokenStore(backend, options.directory),
      ...oauthClientSettings(backend),
    });
    await client.signIn();
  } finally {
    timer?.clear();
    await redirect.close();
  }
}
