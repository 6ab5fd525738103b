import { type Connection, ConnectionClosedError, createConnection } from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { APPLIES, resolveCapability } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import type { PairHarness } from "../pair-harness.js";

/** Starts a Connection on each side (server first), each step with the wait deadline. */
async function startConnections(harness: PairHarness, server: Connection, client: Connection) {
  await harness.within(server.start(), "server side: Connection start() did not resolve");
  await harness.within(client.start(), "client side: Connection start() did not resolve");
}

async function expectClosedError(
  harness: PairHarness,
  pending: Promise<unknown>,
  after: string,
): Promise<void> {
  const settled = pending.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  const error = await harness.within(
    settled,
    `client side: the pending request neither failed nor succeeded ${after}`,
  );
  expect(error, "the pending request should reject").toBeDefined();
  expect(
    ConnectionClosedError.isInstance(error),
    `ConnectionClosedError expected, got ${String(error)}`,
  ).toBe(true);
}

/** A jsonrpc-core Connection over the transport: round trips, and pending requests on close. */
export function defineConnectionCases(context: ContractContext): void {
  const serverClose = resolveCapability(context.capabilities.serverClose, "serverClose");
  const serverInitiated = resolveCapability(
    context.capabilities.serverInitiatedMessages,
    "serverInitiatedMessages",
  );

  context.test(
    "Connections on both sides exchange a request and its response",
    APPLIES,
    async () => {
      const harness = await context.openPair();
      const server = createConnection(harness.server);
      server.handle("contract/add", (params) => {
        const { a, b } = params as { a: number; b: number };
        return { sum: a + b };
      });
      const client = createConnection(harness.client);
      await startConnections(harness, server, client);
      const sum = await harness.within(
        client.request("contract/add", { a: 2, b: 3 }),
        "client side: no response to contract/add",
      );
      expect(sum).toEqual({ sum: 5 });
    },
  );

  context.test(
    "the server sends a request and gets the client's response",
    serverInitiated,
    async () => {
      const harness = await context.openPair();
      const server = createConnection(harness.server);
      const client = createConnection(harness.client);
      client.handle("contract/ping", () => ({ pong: true }));
      await startConnections(harness, server, client);
      const pong = await harness.within(
        server.request("contract/ping"),
        "server side: no response to contract/ping",
      );
      expect(pong).toEqual({ pong: true });
    },
  );

  context.test(
    "a pending request fails with ConnectionClosedError when the client transport closes",
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      const client = createConnection(harness.client);
      await harness.within(client.start(), "client side: Connection start() did not resolve");
      const pending = client.request("contract/never-answered");
      await harness.serverEvents.frames.waitFor(1, "after the client sent a request");
      await harness.client.close();
      await expectClosedError(harness, pending, "after the client closed");
    },
  );

  context.test(
    "a pending request fails with ConnectionClosedError when the server side closes",
    serverClose,
    async () => {
      const harness = await context.openStartedPair();
      const client = createConnection(harness.client);
      await harness.within(client.start(), "client side: Connection start() did not resolve");
      const pending = client.request("contract/never-answered");
      await harness.serverEvents.frames.waitFor(1, "after the client sent a request");
      await harness.server.close();
      await expectClosedError(harness, pending, "after the server closed");
    },
  );
}
