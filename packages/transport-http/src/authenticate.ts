import type { IncomingMessage } from "node:http";

/** The outcome of an {@link Authenticate} hook. */
export type AuthenticateResult =
  | {
      readonly ok: true;
      /** Whatever the hook learnt (a user, scopes); handed to `onSession` and to frame listeners. */
      readonly info?: unknown;
    }
  | {
      readonly ok: false;
      /** 401 (default: missing or invalid credentials) or 403 (insufficient scope). */
      readonly status?: 401 | 403;
      /** The `WWW-Authenticate` challenge, e.g. `Bearer resource_metadata="…"`. */
      readonly wwwAuthenticate?: string;
      /** The error message in the JSON-RPC error body. */
      readonly message?: string;
    };

/** Decides whether a request may proceed; runs before any session lookup or body read. */
export type Authenticate = (
  request: IncomingMessage,
) => AuthenticateResult | Promise<AuthenticateResult>;
