import { ERROR_TABLE, PatchbayErrorCode } from "@patchbay/mcp-types";

/**
 * The codes of errors the router makes, under the router's names. The values come from the one
 * table of every code Patchbay emits (`PatchbayErrorCode` and `ERROR_TABLE` in
 * `@patchbay/mcp-types`, shown in the repository README's "Errors" section).
 */
export const GatewayErrorCode = {
  /** The connection to the backend closed while the request was in flight (it crashed or exited). */
  BackendConnectionClosed: PatchbayErrorCode.ConnectionClosed,
  /** The backend did not answer in time (per-backend `timeoutMs`, reset on progress, `maxTimeoutMs`). */
  BackendTimeout: PatchbayErrorCode.RequestTimeout,
  /** The backend is not running: starting, restarting, failed or stopped. */
  BackendUnavailable: PatchbayErrorCode.BackendUnavailable,
  /** The request could not be delivered to the backend (transport failure). */
  BackendTransportFailed: PatchbayErrorCode.BackendTransportFailed,
  /** The request needs a capability the other side did not declare, so it cannot cross. */
  CapabilityNotSupported: PatchbayErrorCode.CapabilityNotSupported,
  /** The gateway is shutting down and takes no new requests. */
  GatewayShuttingDown: PatchbayErrorCode.GatewayShuttingDown,
  /** The backend's response was over the backend's `maxMessageBytes`; it was dropped. */
  BackendResponseTooLarge: PatchbayErrorCode.BackendResponseTooLarge,
  /** A backend's request to a client names no call the gateway can trace, and several could. */
  RelayTargetUnknown: PatchbayErrorCode.RelayTargetUnknown,
  /** A modern client's retry names a held call (by its `requestState`) that has ended. */
  HeldCallEnded: PatchbayErrorCode.HeldCallEnded,
  /** A modern client has `maxHeldCalls` calls waiting for its input already. */
  TooManyHeldCalls: PatchbayErrorCode.TooManyHeldCalls,
  /** The gateway failed in a way no other code describes. */
  GatewayInternalError: PatchbayErrorCode.GatewayInternalError,
} as const;

/** One of the gateway's own error codes. */
export type GatewayErrorCode = (typeof GatewayErrorCode)[keyof typeof GatewayErrorCode];

/** The router's codes (name, code, meaning): its rows of `ERROR_TABLE`, under the router's names. */
export const GATEWAY_ERROR_TABLE: readonly {
  readonly name: keyof typeof GatewayErrorCode;
  readonly code: GatewayErrorCode;
  readonly meaning: string;
}[] = (Object.keys(GatewayErrorCode) as (keyof typeof GatewayErrorCode)[]).map((name) => {
  const code = GatewayErrorCode[name];
  const entry = ERROR_TABLE.find((candidate) => candidate.code === code);
  return { name, code, meaning: entry?.meaning ?? "" };
});
