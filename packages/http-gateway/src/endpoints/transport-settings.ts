import type { IncomingMessage } from "node:http";
import type { AdmitBatch, Clock } from "@patchbay/transport-http";
import { ANONYMOUS } from "../admission/admission.js";
import type { FrontAdmission } from "../admission/front-admission.js";
import type { TokenIdentity } from "../admission/token-auth.js";
import type { ResolvedLimits } from "../http-gateway-options.js";

/** Charges the requests of a batch after the first (see `FrontAdmission.chargeBatch`). */
export type ChargeBatch = FrontAdmission["chargeBatch"];

/** The options every HTTP transport handler of the gateway shares (Streamable HTTP, legacy SSE). */
export interface TransportSettings {
  readonly authenticate: (request: IncomingMessage) => { ok: true; info: TokenIdentity };
  readonly admitBatch: AdmitBatch;
  readonly allowedHosts: "any";
  readonly allowedOrigins: "any";
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly maxSessionsPerIdentity: number;
  readonly clock: Clock;
  readonly keepAliveIntervalMs?: number;
}

/**
 * The handlers' settings: they take the identity admission gave the request and check nothing
 * admission checked already (Host and Origin, with the gateway's lists).
 */
export function transportSettings(
  limits: ResolvedLimits,
  clock: Clock,
  keepAliveIntervalMs: number | undefined,
  identityOf: (request: IncomingMessage) => TokenIdentity | undefined,
  chargeBatch: ChargeBatch,
): TransportSettings {
  return {
    authenticate: (request) => ({ ok: true, info: identityOf(request) ?? ANONYMOUS }),
    // A batch costs a unit per request, as the requests would one by one.
    admitBatch: (request, requests) =>
      chargeBatch(request, identityOf(request) ?? ANONYMOUS, requests),
    allowedHosts: "any",
    allowedOrigins: "any",
    maxBodyBytes: limits.maxBodyBytes,
    // The gateway counts sessions itself, every kind and profile together; the transports' own
    // caps are set to match, not below it.
    maxSessions: limits.maxSessions,
    maxSessionsPerIdentity: limits.maxSessions,
    clock,
    ...(keepAliveIntervalMs === undefined ? {} : { keepAliveIntervalMs }),
  };
}
