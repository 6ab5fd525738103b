import type { JSONRPCId } from "@patchbay/jsonrpc-core";
import type { v2025_11_25 } from "@patchbay/mcp-types";

/** What a handler of a server-to-client request learns besides the params. */
export interface ClientRequestContext {
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /**
   * The id of this client's request that the server's request belongs to, when the transport can
   * tell (a Streamable HTTP POST stream, the memory pair); absent over stdio.
   */
  readonly relatedRequestId?: JSONRPCId;
  /**
   * Modern era (2026-07-28): the key of this input request in the server's `input_required`
   * result; `relatedRequestId` is then the id of the request round that received it.
   */
  readonly inputKey?: string;
}

/** Answers `sampling/createMessage`: run the client's model on the messages. */
export type SamplingHandler = (
  params: v2025_11_25.CreateMessageRequestParams,
  context: ClientRequestContext,
) => v2025_11_25.CreateMessageResult | Promise<v2025_11_25.CreateMessageResult>;

/** Answers `elicitation/create`: ask the user. */
export type ElicitationHandler = (
  params: v2025_11_25.ElicitRequestParams,
  context: ClientRequestContext,
) => v2025_11_25.ElicitResult | Promise<v2025_11_25.ElicitResult>;

/** Answers `roots/list`. */
export type RootsHandler = (
  context: ClientRequestContext,
) => v2025_11_25.ListRootsResult | Promise<v2025_11_25.ListRootsResult>;

/**
 * Handlers for the server-to-client requests. A capability is declared only for a handler that is
 * set (MCP "Lifecycle": both sides MUST only use negotiated capabilities).
 */
export interface ClientHandlers {
  /** Declares `sampling` (with `tools` when `samplingTools` is true). */
  sampling?: SamplingHandler;
  /** Declare `sampling.tools` (2025-11-25): the model may be given tools. */
  samplingTools?: boolean;
  /** Declares `elicitation` for the modes listed in `elicitationModes` (default form only). */
  elicitation?: ElicitationHandler;
  /** Modes to declare for elicitation (2025-11-25); default `["form"]`. */
  elicitationModes?: readonly ("form" | "url")[];
  /** Declares `roots` with `listChanged`, so `client.notifyRootsListChanged()` may be used. */
  roots?: RootsHandler;
}
