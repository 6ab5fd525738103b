import type { Client, ClientOptions } from "@patchbay/client";
import { type Connection, createConnection } from "@patchbay/jsonrpc-core";
import { afterEach, describe, it } from "vitest";
import { within } from "../transport/deadline.js";
import { runRule } from "../transport/known-failure.js";
import { defineClientRequestCases } from "./cases/client-request-cases.js";
import { defineLifecycleCases } from "./cases/lifecycle-cases.js";
import { defineListCases } from "./cases/list-cases.js";
import { defineModernCases } from "./cases/modern-cases.js";
import { defineModernRoundTripCases } from "./cases/modern-round-trip-cases.js";
import { defineNotificationCases } from "./cases/notification-cases.js";
import { definePromptCases } from "./cases/prompt-cases.js";
import { defineResourceCases } from "./cases/resource-cases.js";
import { defineToolCases } from "./cases/tool-cases.js";
import { defineUtilityCases } from "./cases/utility-cases.js";
import { createContractClient, type ServerContractContext } from "./server-contract-context.js";
import type { ServerContractConnection, ServerContractOptions } from "./server-contract-options.js";

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_WAIT_TIMEOUT_MS = 4_000;
/** Connecting may spawn a process and runs the handshake: it gets this many wait deadlines. */
const CONNECT_PATIENCE = 5;

/**
 * Declares the MCP server contract suite in the calling vitest file: one `describe` block named
 * after the server, with a case per rule of the server side of the protocol (lifecycle, lists and
 * pagination, tools, resources, prompts, completion, logging, progress, cancellation,
 * server-to-client requests, notifications). The server must carry the fixtures listed in the
 * package README. Cases the capabilities rule out are declared as skipped with the reason.
 */
export function describeServerContract(options: ServerContractOptions): void {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const waitTimeoutMs = options.waitTimeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const connecting = <T>(promise: Promise<T>, what: string) =>
    within(promise, CONNECT_PATIENCE * waitTimeoutMs, (duration) => `${what} within ${duration}`);
  describe(`server contract: ${options.name}`, () => {
    const open: { close(): Promise<void>; connection: ServerContractConnection }[] = [];
    afterEach(async () => {
      const opened = open.splice(0);
      await Promise.all(
        opened.map(async (entry) => {
          await within(entry.close(), 2 * waitTimeoutMs, (duration) => {
            return `cleanup: the client did not close within ${duration}`;
          }).catch(() => undefined);
          await entry.connection.dispose?.();
        }),
      );
    }, timeoutMs);

    const context: ServerContractContext = {
      capabilities: options.capabilities ?? {},
      waitTimeoutMs,
      async connectClient(clientOptions: ClientOptions = {}): Promise<Client> {
        const connection = await connecting(options.connect(), "connect() did not resolve");
        const client = createContractClient(clientOptions, waitTimeoutMs);
        open.push({ close: () => client.close(), connection });
        await connecting(
          client.connect(connection.transport),
          "the client did not finish connecting (initialize)",
        );
        return client;
      },
      async connectRaw(): Promise<Connection> {
        const connection = await connecting(options.connect(), "connect() did not resolve");
        const raw = createConnection(connection.transport, { defaultTimeoutMs: waitTimeoutMs });
        open.push({ close: () => raw.close(), connection });
        await connecting(raw.start(), "the raw connection did not start");
        return raw;
      },
      test(name, applicability, body) {
        if (applicability.applies) it(name, () => runRule(name, body), timeoutMs);
        else it.skip(`${name} [not applicable: ${applicability.reason}]`, body);
      },
    };

    const eras = options.eras ?? ["legacy", "modern"];
    if (eras.includes("legacy")) defineLegacyGroups(context);
    if (eras.includes("modern")) {
      describe("modern era (2026-07-28)", () => {
        defineModernCases(context);
        defineModernRoundTripCases(context);
      });
    }
  });
}

/** The cases every era-agnostic (legacy handshake) server passes, by group. */
function defineLegacyGroups(context: ServerContractContext): void {
  describe("lifecycle", () => defineLifecycleCases(context));
  describe("lists and pagination", () => defineListCases(context));
  describe("tools", () => defineToolCases(context));
  describe("resources", () => defineResourceCases(context));
  describe("prompts and completion", () => definePromptCases(context));
  describe("logging, progress and cancellation", () => defineUtilityCases(context));
  describe("server-to-client requests", () => defineClientRequestCases(context));
  describe("notifications", () => defineNotificationCases(context));
}
