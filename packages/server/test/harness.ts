import { type Client, type ClientOptions, createClient } from "@patchbay/client";
import {
  type Connection,
  createConnection,
  createMemoryTransportPair,
} from "@patchbay/jsonrpc-core";
import type { Server } from "../src/index.js";
import type { ServerSession } from "../src/server-session.js";

/** A client connected to `server` over a fresh memory pair, and the server's session for it. */
export async function connectClient(
  server: Server,
  options: ClientOptions = {},
): Promise<{ client: Client; session: ServerSession }> {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const session = await server.connect(serverSide);
  const client = createClient({ name: "test-client", version: "1.0.0" }, options);
  const initialized = new Promise<void>((resolve) => session.onInitialized(resolve));
  await client.connect(clientSide);
  await initialized;
  return { client, session };
}

/** A bare JSON-RPC connection to `server`, for talking to it without the MCP client's handshake. */
export async function connectRaw(
  server: Server,
): Promise<{ connection: Connection; session: ServerSession }> {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const session = await server.connect(serverSide);
  const connection = createConnection(clientSide);
  await connection.start();
  return { connection, session };
}

/** Resolves with the first value `subscribe` hands its listener. */
export function nextEvent<T>(subscribe: (listener: (value: T) => void) => () => void): Promise<T> {
  return new Promise((resolve) => {
    const unsubscribe = subscribe((value) => {
      unsubscribe();
      resolve(value);
    });
  });
}

/** Resolves with the rejection reason of `promise` (fails when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error("expected the promise to reject");
}

/** The text of the first content block of a tool result. */
export function firstText(result: { content: readonly unknown[] }): string {
  const block = result.content[0] as { type: string; text?: string } | undefined;
  return block?.text ?? "";
}
