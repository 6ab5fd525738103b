/**
 * A message as the SDK types it. Declared as `object` because the SDK's message types (inferred from
 * its zod schemas, MCP-specific: no array params, optional error ids) and ours do not fit into each
 * other; the adapters check messages at runtime with `decodeValue` where it matters.
 */
export type SdkJSONRPCMessage = object;

/**
 * The shape of the official MCP TypeScript SDK's `Transport` (`@modelcontextprotocol/sdk`
 * `shared/transport.js`), declared structurally so that jsonrpc-core has no dependency on the SDK.
 * The callbacks are properties that may hold `undefined`, as the SDK's Streamable HTTP server
 * transport declares them (so it fits under `exactOptionalPropertyTypes`).
 */
export interface SdkTransportLike {
  /** Begins delivery; the SDK calls it once, after installing the callbacks. */
  start(): Promise<void>;
  /** Sends one message (SDK transports send no batches). */
  send(message: SdkJSONRPCMessage, options?: object): Promise<void>;
  /** Closes the transport; it then calls `onclose`. */
  close(): Promise<void>;
  /** Called when the transport closes, for any reason. */
  onclose?: (() => void) | undefined;
  /** Called for non-fatal errors. */
  onerror?: ((error: Error) => void) | undefined;
  /** Called for each incoming message; `extra` carries the SDK's request and auth info. */
  onmessage?: Bivariant<(message: SdkJSONRPCMessage, extra?: object) => void> | undefined;
  /** The session id, for transports that have one. */
  sessionId?: string | undefined;
  /** Called by the SDK once the protocol version is negotiated. */
  setProtocolVersion?: ((version: string) => void) | undefined;
}

/**
 * A callback type checked with method (bivariant) parameters, so that an SDK transport whose
 * `onmessage` takes the SDK's narrower message type still fits.
 */
type Bivariant<Callback extends (...args: never[]) => void> = {
  bivarianceHack(...args: Parameters<Callback>): void;
}["bivarianceHack"];
