import { ConnectionClosedError, createConnection } from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { APPLIES, resolveCapability } from "../capability.js";
import type { ContractContext } from "../contract-context.js";

async function expectClosedError(pending: Promise<unknown>): Promise<void> {
  const error = await pending.then(
    () => undefined,
    (rejection: unknown) => rejection,
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
      await server.start();
      await client.start();
      await expect(client.request("contract/add", { a: 2, b: 3 })).resolves.toEqual({ sum: 5 });
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
      await server.start();
      await client.start();
      await expect(server.request("contract/ping")).resolves.toEqual({ pong: true });
    },
  );

  context.test(
    "a pending request fails with ConnectionClosedError when the client transport closes",
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      const client = createConnection(harness.client);
      await client.start();
      const pending = client.request("contract/never-answered");
      await harness.serverEvents.frames.waitFor(1);
      await harness.client.close();
      await expectClosedError(pending);
    },
  );

  context.test(
    "a pending request fails with ConnectionClosedError when the server side closes",
    serverClose,
    async () => {
      const harness = await context.openStartedPair();
      const client = createConnection(harness.client);
      await client.start();
      const pending = client.request("contract/never-answered");
      await harness.serverEvents.frames.waitFor(1);
      await harness.server.close();
      await expectClosedError(pending);
    },
  );
}
