/**
 * Codes of errors the gateway itself makes, all inside the range MCP leaves to implementations
 * (-32000..-32019, 2026-07-28 error-code allocation). -32002 is skipped on purpose: it meant
 * "resource not found" in MCP 2024-11-05..2025-11-25.
 */
export const GatewayErrorCode = {
  /** The connection to the backend closed while the request was in flight (it crashed or exited). */
  BackendConnectionClosed: -32000,
  /** The backend did not answer in time (per-backend `timeoutMs`, reset on progress, `maxTimeoutMs`). */
  BackendTimeout: -32001,
  /** The backend is not running: starting, restarting, failed or stopped. */
  BackendUnavailable: -32003,
  /** The request could not be delivered to the backend (transport failure). */
  BackendTransportFailed: -32004,
  /** The request needs a capability the other side did not declare, so it cannot cross. */
  CapabilityNotSupported: -32005,
  /** The gateway is shutting down and takes no new requests. */
  GatewayShuttingDown: -32006,
  /** The backend's response was over the backend's `maxMessageBytes`; it was dropped. */
  BackendResponseTooLarge: -32007,
  /**
   * A backend's request to a client names no call the gateway can trace, and several clients could
   * have caused it.
   */
  RelayTargetUnknown: -32008,
  /**
   * A modern client's retry names a held call (by its `requestState`) that has ended: its
   * deadline passed, it was cancelled, or the gateway restarted.
   */
  HeldCallEnded: -32009,
  /** A modern client has `maxHeldCalls` calls waiting for its input already. */
  TooManyHeldCalls: -32011,
  /** The gateway failed in a way no other code describes. */
  GatewayInternalError: -32019,
} as const;

/** One of the gateway's own error codes. */
export type GatewayErrorCode = (typeof GatewayErrorCode)[keyof typeof GatewayErrorCode];

/** The documented table of gateway error codes (name, code, meaning), for docs and status. */
export const GATEWAY_ERROR_TABLE: readonly {
  readonly name: keyof typeof GatewayErrorCode;
  readonly code: GatewayErrorCode;
  readonly meaning: string;
}[] = [
  {
    name: "BackendConnectionClosed",
    code: GatewayErrorCode.BackendConnectionClosed,
    meaning: "the connection to the backend closed while the request was in flight",
  },
  {
    name: "BackendTimeout",
    code: GatewayErrorCode.BackendTimeout,
    meaning: "the backend did not answer within timeoutMs (reset on progress) or maxTimeoutMs",
  },
  {
    name: "BackendUnavailable",
    code: GatewayErrorCode.BackendUnavailable,
    meaning: "the backend is not running (starting, restarting, failed or stopped)",
  },
  {
    name: "BackendTransportFailed",
    code: GatewayErrorCode.BackendTransportFailed,
    meaning: "the request could not be delivered to the backend",
  },
  {
    name: "CapabilityNotSupported",
    code: GatewayErrorCode.CapabilityNotSupported,
    meaning: "the request needs a capability the receiving side did not declare",
  },
  {
    name: "GatewayShuttingDown",
    code: GatewayErrorCode.GatewayShuttingDown,
    meaning: "the gateway is shutting down",
  },
  {
    name: "BackendResponseTooLarge",
    code: GatewayErrorCode.BackendResponseTooLarge,
    meaning: "the backend's response was over its maxMessageBytes limit and was dropped",
  },
  {
    name: "RelayTargetUnknown",
    code: GatewayErrorCode.RelayTargetUnknown,
    meaning:
      "the gateway cannot tell which client a backend's request (sampling, elicitation, roots) is for",
  },
  {
    name: "HeldCallEnded",
    code: GatewayErrorCode.HeldCallEnded,
    meaning:
      "a modern client's retry names a held call that has ended (deadline passed, cancelled, or the gateway restarted)",
  },
  {
    name: "TooManyHeldCalls",
    code: GatewayErrorCode.TooManyHeldCalls,
    meaning: "a modern client has maxHeldCalls calls waiting for its input already",
  },
  {
    name: "GatewayInternalError",
    code: GatewayErrorCode.GatewayInternalError,
    meaning: "an unexpected failure inside the gateway",
  },
];
