import type { IncomingMessage } from "node:http";
import type { Frame, FrameInfo, Transport } from "@patchbay/jsonrpc-core";
import { createOriginGuard, type OriginGuardOptions } from "@patchbay/transport-http";
import type { ResolvedLimits } from "../http-gateway-options.js";
import {
  type AdmissionOptions,
  addressKey,
  admitAtOnce,
  type RateLimiter,
  type Refusal,
  type SharedRateLimiter,
  tokenKey,
} from "./admission.js";
import { admitEachFrame } from "./admitted-transport.js";
import {
  chargeRequests,
  chargeUnits,
  type FramePayer,
  limitBatchSize,
  type RefusedRequest,
} from "./frame-admission.js";
import type { OAuthVerifier } from "./oauth/oauth-verifier.js";
import {
  type BearerTokenConfig,
  createTokenAuthenticator,
  type TokenIdentity,
} from "./token-auth.js";

/** What {@link createFrontAdmission} needs. */
export interface FrontAdmissionOptions extends OriginGuardOptions {
  /** Accepted bearer tokens; `undefined`: no auth (only the address pays). */
  readonly tokens: readonly BearerTokenConfig[] | undefined;
  /** OAuth 2.1 access tokens (a started verifier), beside or instead of static tokens. */
  readonly oauth?: OAuthVerifier | undefined;
  readonly limits: ResolvedLimits;
  /** One limiter for every entry: in-process buckets, or buckets shared by replicas. */
  readonly limiter: RateLimiter | SharedRateLimiter;
  readonly trustProxy: boolean;
  /** The token name that owns a session id, when the gateway knows the session. */
  readonly ownerOf: (sessionId: string) => string | undefined;
}

/**
 * The one admission of the gateway: every entry (a Streamable HTTP, SSE, `/messages`, plain
 * JSON-RPC or modern POST or GET, and a WebSocket upgrade) passes `entry`, and each frame of a
 * connection that outlives its entry (WebSocket) passes `limitBatches` and `chargeRequests`; all
 * take from the same buckets, so no way in escapes a limit another way in enforces.
 */
export interface FrontAdmission {
  /**
   * Host/Origin alone (403), for the paths that need no token (`/`, `/healthz`, `/readyz`,
   * `/metrics`): a DNS-rebinding page may not read them either.
   */
  origin(request: IncomingMessage): Refusal | undefined;
  /**
   * Host/Origin, address bucket, bearer token (static, else OAuth), profile, token bucket, session
   * ownership.
   */
  entry(
    request: IncomingMessage,
    profile: string | undefined,
    sessionId: string | undefined,
  ): TokenIdentity | Refusal | Promise<TokenIdentity | Refusal>;
  /**
   * Wraps an admitted connection's transport, before anything else sees its frames: a batch over
   * `maxBatchSize` is refused whole.
   */
  limitBatches(transport: Transport, onRefused: (refused: RefusedRequest) => void): Transport;
  /**
   * The rest of an HTTP batch's cost: its entry paid for one request, so each further request of
   * the batch (`requests` in all) costs one unit of the same address and token buckets; the 429
   * refusal of the first empty one answers the whole POST.
   */
  chargeBatch(
    request: IncomingMessage,
    identity: TokenIdentity,
    requests: number,
  ): Promise<Refusal | undefined>;
  /**
   * Replaces the accepted credentials (a config reload): entries admitted from now on are checked
   * against these; sessions keep their owner.
   */
  setCredentials(credentials: FrontCredentials): void;
  /**
   * Wraps the connection's guarded transport, just before the router: each request it carries,
   * alone or in a batch, costs one unit of the entry's address and token buckets; a refused one is
   * answered -32015 (`RateLimited`) through the guard (so it is logged as every answered request is).
   */
  chargeRequests(
    front: Transport,
    request: IncomingMessage,
    identity: TokenIdentity,
    onRefused: (refused: RefusedRequest) => void,
  ): Transport;
}

/** What a request may authenticate with. */
export interface FrontCredentials {
  /** Static bearer tokens; `undefined`: none. */
  readonly tokens: readonly BearerTokenConfig[] | undefined;
  /** A started OAuth verifier; `undefined`: no OAuth sign-in. */
  readonly oauth: OAuthVerifier | undefined;
}

/** Creates the gateway's admission from its options. */
export function createFrontAdmission(options: FrontAdmissionOptions): FrontAdmission {
  const { limits, limiter, trustProxy } = options;
  const entryOptions: AdmissionOptions = {
    guard: createOriginGuard(options),
    limiter,
    requestsPerMinute: limits.requestsPerMinute,
    authenticator:
      options.tokens === undefined ? undefined : createTokenAuthenticator(options.tokens),
    oauth: options.oauth,
    trustProxy,
    ownerOf: options.ownerOf,
  };
  let entry = entryOptions;
  const frameOptions = { limiter, requestsPerMinute: limits.requestsPerMinute };
  // The buckets a request pays from: its address, and its token's when any credential is asked.
  const payerOf = (request: IncomingMessage, identity: TokenIdentity): FramePayer => ({
    addressKey: addressKey(request, trustProxy),
    tokenKey:
      entry.authenticator === undefined && entry.oauth === undefined
        ? undefined
        : tokenKey(identity),
  });
  const admission: FrontAdmission = {
    origin(request) {
      const rejection = entryOptions.guard(request);
      return rejection === undefined ? undefined : { status: 403, message: rejection.message };
    },
    // Bound to the options in force (again by setCredentials): nothing of ours runs to pass them.
    // At once when no step has to wait (see `admitAtOnce`).
    entry: admitAtOnce.bind(undefined, entry),
    setCredentials(credentials) {
      // Built first: tokens that cannot be used (two of one name) throw and change nothing.
      const authenticator =
        credentials.tokens === undefined ? undefined : createTokenAuthenticator(credentials.tokens);
      entry = { ...entryOptions, authenticator, oauth: credentials.oauth };
      admission.entry = admitAtOnce.bind(undefined, entry);
    },
    limitBatches(transport, onRefused) {
      const limitOne = async (frame: Frame, info: FrameInfo) =>
        limitBatchSize(frame, info, limits.maxBatchSize);
      return admitEachFrame(transport, limitOne, onRefused);
    },
    chargeBatch: (request, identity, requests) =>
      chargeUnits(payerOf(request, identity), requests - 1, frameOptions),
    chargeRequests(front, request, identity, onRefused) {
      const payer = payerOf(request, identity);
      const chargeOne = (frame: Frame, info: FrameInfo) =>
        chargeRequests(frame, info, payer, frameOptions);
      return admitEachFrame(front, chargeOne, onRefused);
    },
  };
  return admission;
}
