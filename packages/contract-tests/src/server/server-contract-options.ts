import type { Transport } from "@patchbay/jsonrpc-core";

/** Whether the server under test has a capability: `true`, `false`, or `{ unsupported: reason }`. */
export type ServerCapability = boolean | { readonly unsupported: string };

/** One connection to the server under test: the client end of a fresh session. */
export interface ServerContractConnection {
  /** A transport whose peer is a new session of the server under test (not started yet, or started). */
  readonly transport: Transport;
  /** Releases what the connection holds (child process, HTTP server...). Called after every case. */
  readonly dispose?: () => void | Promise<void>;
}

/**
 * Real differences between servers and the transports in front of them; every key is optional and
 * defaults to supported. A case ruled out is declared as skipped with the reason in its name.
 */
export interface ServerContractCapabilities {
  /** `connect` may be called again while an earlier connection is open (one session each). */
  readonly concurrentSessions?: ServerCapability;
  /** The server can send requests to the client (sampling, elicitation, roots). */
  readonly serverToClientRequests?: ServerCapability;
  /** Unsolicited notifications (list_changed, resources/updated) reach the client. */
  readonly unsolicitedNotifications?: ServerCapability;
  /** A raw (non-MCP-client) JSON-RPC peer can talk to the server: lifecycle edge cases. */
  readonly rawLifecycle?: ServerCapability;
  /**
   * A request sent before `initialize` reaches the server, which refuses it with a JSON-RPC error
   * (Streamable HTTP refuses it itself, with HTTP 400, before any server sees it).
   */
  readonly requestsBeforeInitialize?: ServerCapability;
  /**
   * The server speaks the modern era (2026-07-28) over this transport: `server/discover`, per-request
   * `_meta`, MRTR, `subscriptions/listen`. The one capability that is opt-in (default: not declared),
   * since most servers and gateways are legacy-only.
   */
  readonly modernEra?: ServerCapability;
}

/** What `describeServerContract` needs to run the suite against one server. */
export interface ServerContractOptions {
  /** The server's (and transport's) name, shown in the suite's title. */
  readonly name: string;
  /** Opens a new connection (a new session) to the server under test. */
  readonly connect: () => Promise<ServerContractConnection>;
  /** Real differences, declared rather than skipped silently. */
  readonly capabilities?: ServerContractCapabilities;
  /** Per-case timeout in milliseconds (default 30 000): a backstop behind `waitTimeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * How long a step waits for a response or a notification before the case fails with the rule's
   * name and what it waited for (default 4,000; connecting gets five times as long).
   */
  readonly waitTimeoutMs?: number;
  /**
   * The eras whose cases are declared (default both): a transport whose legacy cases run elsewhere
   * can run only its modern (2026-07-28) ones, which still need `capabilities.modernEra`.
   */
  readonly eras?: readonly ("legacy" | "modern")[];
}
