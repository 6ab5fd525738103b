import type { JSONRPCId, JSONRPCNotification } from "@patchbay/jsonrpc-core";
import type { EventInput } from "@patchbay/telemetry";
import type { CallCause } from "./call-causes.js";

/** The server-to-client requests a backend may send, which the router relays to a client. */
export type ServerToClientMethod = "sampling/createMessage" | "elicitation/create" | "roots/list";

/** The client capability each request a backend sends to a client needs. */
export const CLIENT_CAPABILITY_OF: Readonly<Record<ServerToClientMethod, string>> = {
  "sampling/createMessage": "sampling",
  "elicitation/create": "elicitation",
  "roots/list": "roots",
};

/** A backend asks the client side something; whoever routes it calls `respond` once. */
export interface ServerRequestEvent {
  readonly type: "server-request";
  readonly backend: string;
  readonly method: ServerToClientMethod;
  readonly params: unknown;
  /** Aborted when the backend cancels its request or goes away. */
  readonly signal: AbortSignal;
  /** The backend request it belongs to, when its transport told (Streamable HTTP, memory). */
  readonly relatedRequestId: JSONRPCId | undefined;
  /** The call behind `relatedRequestId`, when that is a call a caller made and still in flight. */
  readonly cause: CallCause | undefined;
  /** The callers with calls in flight to this backend now. */
  readonly busyCallers: readonly string[];
  /** Answers the backend with the outcome of `answer`. */
  respond(answer: Promise<unknown>): void;
}

/** What a backend tells the router, which knows the sessions it does not. */
export type BackendEvent =
  /** Its status or its listing changed (`list`: the backend said that list changed). */
  | {
      readonly type: "changed";
      readonly backend: string;
      readonly list?: "tools" | "prompts" | "resources";
    }
  /** A notification other than list_changed, progress and cancelled (logging, resources/updated...). */
  | {
      readonly type: "notification";
      readonly backend: string;
      readonly notification: JSONRPCNotification;
      /** The call it belongs to, when the transport told and the call is in flight. */
      readonly cause: CallCause | undefined;
    }
  /** A telemetry event about it (started, crashed, restarted, stopped). */
  | { readonly type: "recorded"; readonly event: EventInput }
  | ServerRequestEvent;

/** Receives every event of a backend. */
export type BackendListener = (event: BackendEvent) => void;
