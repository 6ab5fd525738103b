import { type Client, type ClientOptions, createClient } from "@patchbay/client";
import type { Connection } from "@patchbay/jsonrpc-core";
import type { ServerCapability, ServerContractCapabilities } from "./server-contract-options.js";

/** Whether a case applies, and why not. */
export interface Applicability {
  readonly applies: boolean;
  readonly reason: string;
}

/** What every case file gets: connections to the server under test and the way to declare a case. */
export interface ServerContractContext {
  readonly capabilities: ServerContractCapabilities;
  /** How long a step waits for a response or a notification before the case fails. */
  readonly waitTimeoutMs: number;
  /** A connected, initialized MCP client on a new session; closed after the case. */
  connectClient(options?: ClientOptions): Promise<Client>;
  /** A started bare JSON-RPC connection on a new session (no handshake done); closed after the case. */
  connectRaw(): Promise<Connection>;
  /** Declares a case, or a skipped case naming why it does not apply. */
  test(name: string, applicability: Applicability, body: () => Promise<void>): void;
}

/** A case that always applies. */
export const ALWAYS: Applicability = { applies: true, reason: "" };

/** Reads a capability that defaults to supported. */
export function capability(value: ServerCapability | undefined, key: string): Applicability {
  if (value === undefined || value === true) return ALWAYS;
  if (value === false) return { applies: false, reason: `capabilities.${key} is false` };
  return { applies: false, reason: value.unsupported };
}

/** Applies when each of `applicabilities` does. */
export function allOf(...applicabilities: readonly Applicability[]): Applicability {
  return applicabilities.find((applicability) => !applicability.applies) ?? ALWAYS;
}

/** Creates a client for the suite whose requests time out after `waitTimeoutMs` unless `options` say otherwise. */
export function createContractClient(options: ClientOptions, waitTimeoutMs: number): Client {
  return createClient(
    { name: "patchbay-server-contract", version: "1.0.0" },
    { requestTimeoutMs: waitTimeoutMs, ...options },
  );
}
