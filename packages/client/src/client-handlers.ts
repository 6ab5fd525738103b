import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
} from "./protocol-types.js";

/** What a handler of a server-to-client request learns besides the params. */
export interface ClientRequestContext {
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
}

/** Answers `sampling/createMessage`: run the client's model on the messages. */
export type SamplingHandler = (
  params: CreateMessageRequestParams,
  context: ClientRequestContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/** Answers `elicitation/create`: ask the user. */
export type ElicitationHandler = (
  params: ElicitRequestParams,
  context: ClientRequestContext,
) => ElicitResult | Promise<ElicitResult>;

/** Answers `roots/list`. */
export type RootsHandler = (
  context: ClientRequestContext,
) => ListRootsResult | Promise<ListRootsResult>;

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
