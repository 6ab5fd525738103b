/** WebSocket close codes the transport uses (RFC 6455 section 7.4.1). */
export const CloseCode = {
  /** The transport was closed on purpose. */
  Normal: 1000,
  /** The server is shutting down. */
  GoingAway: 1001,
  /** The peer broke the protocol (for example, no `mcp` subprotocol). */
  ProtocolError: 1002,
  /** A binary message: MCP messages are text. */
  UnsupportedData: 1003,
  /** No close frame came (set by the socket, never sent). */
  Abnormal: 1006,
  /** The peer is not reading (its unsent backlog passed the limit), or missed a keep-alive. */
  PolicyViolation: 1008,
  /** A message larger than the limit. */
  MessageTooBig: 1009,
  /** This side failed. */
  InternalError: 1011,
} as const;

/** Close codes after which the peer's leaving counts as orderly (`remote`), not as a failure. */
export const ORDERLY_CLOSE_CODES: ReadonlySet<number> = new Set([
  CloseCode.Normal,
  CloseCode.GoingAway,
]);
