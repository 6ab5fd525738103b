import { type Client, createClient } from "@patchbay/client";
import { createMemoryTransportPair, type Transport } from "@patchbay/jsonrpc-core";
import { LEGACY_PROTOCOL_VERSIONS } from "@patchbay/mcp-types";
import { createServer, type Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import type { PrincipalCredentials } from "../src/backends/principal-backends.js";
import type { BackendConfig } from "../src/config/gateway-config.js";
import { createRouter, type Router } from "../src/router/create-router.js";
import { configOf, createManualClock, waitForNotification } from "./harness.js";

/** The credential store's values: principal -> backend -> slot -> value (changed by tests). */
type Values = Record<string, Record<string, Record<string, string>>>;

interface Setup {
  readonly router: Router;
  /** One entry per backend instance opened: the token its env carried. */
  readonly opened: string[];
  /** The backend side of each instance opened, in order. */
  readonly backendSides: Transport[];
  /** One entry per values link minted: `principal/backend`. */
  readonly minted: string[];
  connect(owner: string): Promise<Client>;
  close(): Promise<void>;
}

const CONFIG = {
  mcpServers: {
    gh: { command: "x", isolation: "per-principal", credentials: { env: ["GH_TOKEN"] } },
    open: { command: "x" },
    // Its principals enter their own values on a link.
    self: {
      command: "x",
      isolation: "per-principal",
      credentials: { env: ["SELF_TOKEN"], setByUser: true },
    },
  },
};

/** The connect links handed out: who, which backend, and what to call once connected. */
interface ConnectLink {
  readonly principal: string;
  readonly backend: string;
  readonly connected: (() => void) | undefined;
}

async function setUp(
  values: Values,
  config: object = CONFIG,
  links: ConnectLink[] = [],
): Promise<Setup> {
  const opened: string[] = [];
  const backendSides: Transport[] = [];
  const servers: Server[] = [];
  const minted: string[] = [];
  const credentials: PrincipalCredentials = {
    valuesFor: (principal, backend) => values[principal]?.[backend],
    connectUrl: (principal, backend, connected) => {
      links.push({ principal, backend, connected });
      return `https://proxy.example.com/connect/${backend}?link=${links.length}`;
    },
    valuesUrl: (principal, backend, saved) => {
      minted.push(`${principal}/${backend}`);
      links.push({ principal, backend, connected: saved });
      return `https://proxy.example/connect/${backend}?link=${minted.length}`;
    },
  };
  const router = createRouter({
    config: configOf(config),
    clock: createManualClock(),
    credentials,
    async connect(backend: BackendConfig) {
      const env = backend.transport === "stdio" ? backend.env : {};
      const token = env.GH_TOKEN ?? env.SELF_TOKEN ?? "(none)";
      if (backend.name === "gh") opened.push(token);
      const server = createServer({
        name: `${backend.name}-server`,
        version: "1.0.0",
        protocolVersions: LEGACY_PROTOCOL_VERSIONS,
      });
      server.registerTool("whoami", {}, async () => ({
        content: [{ type: "text", text: backend.name === "open" ? "operator" : token }],
      }));
      server.registerTool("broadcast", {}, async () => {
        // To every client of this server, related to no call.
        await server.log("info", `news from ${token}`);
        return { content: [{ type: "text", text: "sent" }] };
      });
      server.registerTool("work", {}, async (_args, context) => {
        await context.log("info", "working for the caller");
        return { content: [{ type: "text", text: "done" }] };
      });
      servers.push(server);
      const [clientSide, serverSide] = createMemoryTransportPair();
      if (backend.name === "gh") backendSides.push(serverSide);
      await server.connect(serverSide);
      return clientSide;
    },
  });
  await router.start();
  const clients: Client[] = [];
  return {
    router,
    opened,
    backendSides,
    minted,
    async connect(owner) {
      const [clientSide, gatewaySide] = createMemoryTransportPair();
      await router.serve(gatewaySide, { viewer: { operator: false, owner } });
      const client = createClient({ name: "test-client", version: "1.0.0" });
      await client.connect(clientSide);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await router.close();
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}

function textOf(result: unknown): string {
  const content = (result as { content: { text: string }[] }).content;
  return content.map((item) => item.text).join("");
}

function closed(transport: Transport | undefined): Promise<void> {
  return new Promise((resolve) => transport?.onClose(() => resolve()));
}

describe("per-principal backends", { timeout: 5_000 }, () => {
  let setup: Setup | undefined;
  afterEach(async () => {
    await setup?.close();
    setup = undefined;
  });

  it("opens one instance per principal, with that principal's own value", async () => {
    setup = await setUp({
      alice: { gh: { GH_TOKEN: "alice-value" } },
      bob: { gh: { GH_TOKEN: "bob-value" } },
    });
    const alice = await setup.connect("alice");
    const bob = await setup.connect("bob");
    const aliceAgain = await setup.connect("alice");
    expect(textOf(await alice.callTool({ name: "gh__whoami" }))).toBe("alice-value");
    expect(textOf(await bob.callTool({ name: "gh__whoami" }))).toBe("bob-value");
    expect(textOf(await aliceAgain.callTool({ name: "gh__whoami" }))).toBe("alice-value");
    expect(setup.opened).toEqual(["alice-value", "bob-value"]);
    // The operator's shared backend is untouched.
    expect(textOf(await bob.callTool({ name: "open__whoami" }))).toBe("operator");
  });

  it("gives a principal without values a tool error naming the backend, and opens nothing", async () => {
    setup = await setUp({ alice: { gh: { GH_TOKEN: "alice-value" } } });
    const carol = await setup.connect("carol");
    const tools = await carol.listTools();
    expect(tools.tools.map((tool) => tool.name)).not.toContain("gh__whoami");
    const result = await carol.callTool({ name: "gh__whoami" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("backend gh needs your credential (GH_TOKEN)");
    expect(textOf(result)).toContain("patchbay-proxy credentials set");
    // Only a backend with setByUser gives a link, even where the store could mint one.
    expect(setup.minted).toEqual([]);
    const anonymous = await setup.connect("anonymous");
    const refused = await anonymous.callTool({ name: "gh__whoami" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("anonymous callers cannot use it");
    expect(setup.opened).toEqual([]);
  });

  it("gives a principal without values for a setByUser backend its own link, then uses what it stored", async () => {
    const values: Values = {};
    const links: ConnectLink[] = [];
    setup = await setUp(values, CONFIG, links);
    const carol = await setup.connect("carol");
    const result = await carol.callTool({ name: "self__whoami" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "backend self needs your credential (SELF_TOKEN) and none is stored for carol: open https://proxy.example/connect/self?link=1 in a browser and enter it, then call again (the link works once, for carol only, and expires soon)",
    );
    expect(setup.minted).toEqual(["carol/self"]);
    // Carol enters her value on the link: her session is told of the backend's tools at once.
    values.carol = { self: { SELF_TOKEN: "carol-entered" } };
    const told = waitForNotification(carol, "notifications/tools/list_changed");
    links.find((link) => link.principal === "carol")?.connected?.();
    await told;
    expect((await carol.listTools()).tools.map((tool) => tool.name)).toContain("self__whoami");
    expect(textOf(await carol.callTool({ name: "self__whoami" }))).toBe("carol-entered");
    // A modern caller declaring elicitation.url is asked to open its link (2026-07-28: no -32042).
    const modern = await setup.router.modern().handle(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "self__whoami",
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } },
          },
        },
      },
      {
        signal: new AbortController().signal,
        notify: () => {},
        caller: "dave-token",
        viewer: { operator: false, owner: "dave" },
      },
    );
    expect(modern).toMatchObject({
      result: {
        resultType: "input_required",
        inputRequests: {
          "url-1": {
            method: "elicitation/create",
            params: { mode: "url", url: "https://proxy.example/connect/self?link=2" },
          },
        },
      },
    });
  });

  it("uses a value stored while it runs for the principal's next instance", async () => {
    const values: Values = {};
    setup = await setUp(values);
    const carol = await setup.connect("carol");
    expect((await carol.callTool({ name: "gh__whoami" })).isError).toBe(true);
    values.carol = { gh: { GH_TOKEN: "carol-value" } };
    expect(textOf(await carol.callTool({ name: "gh__whoami" }))).toBe("carol-value");
  });

  it("tells a principal's sessions of the tools its connect brought, and no one else's", async () => {
    const values: Values = {};
    const links: ConnectLink[] = [];
    const hub = { url: "https://hub.example.com/mcp", isolation: "per-principal", oauth: {} };
    setup = await setUp(values, { mcpServers: { gh: hub, open: { command: "x" } } }, links);
    const alice = await setup.connect("alice");
    const aliceAgain = await setup.connect("alice");
    const bob = await setup.connect("bob");
    let bobTold = 0;
    bob.on("notifications/tools/list_changed", () => {
      bobTold++;
    });
    expect((await alice.listTools()).tools.map((tool) => tool.name)).not.toContain("gh__whoami");
    const refused = await alice.callTool({ name: "gh__whoami" });
    expect(textOf(refused)).toContain("https://proxy.example.com/connect/gh?link=1");
    expect(links.map((link) => [link.principal, link.backend])).toEqual([["alice", "gh"]]);
    // Alice opens the link and signs in: her tokens are stored, then the link says so.
    values.alice = { gh: { access_token: "alice-token" } };
    const told = waitForNotification(alice, "notifications/tools/list_changed");
    const toldAgain = waitForNotification(aliceAgain, "notifications/tools/list_changed");
    links[0]?.connected?.();
    await Promise.all([told, toldAgain]);
    expect((await alice.listTools()).tools.map((tool) => tool.name)).toContain("gh__whoami");
    expect((await aliceAgain.listTools()).tools.map((tool) => tool.name)).toContain("gh__whoami");
    expect((await bob.listTools()).tools.map((tool) => tool.name)).not.toContain("gh__whoami");
    expect(bobTold).toBe(0);
  });

  it("asks a modern caller declaring elicitation.url to open the link, else tells it in text", async () => {
    const values: Values = {};
    const links: ConnectLink[] = [];
    const hub = { url: "https://hub.example.com/mcp", isolation: "per-principal", oauth: {} };
    setup = await setUp(values, { mcpServers: { gh: hub } }, links);
    const endpoint = setup.router.modern();
    let id = 0;
    const call = async (elicitation: Record<string, unknown>, extra = {}) => {
      id += 1;
      const _meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { elicitation },
      };
      const response = await endpoint.handle(
        {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "gh__whoami", _meta, ...extra },
        },
        {
          signal: new AbortController().signal,
          notify: () => {},
          caller: "alice-token",
          viewer: { operator: false, owner: "alice" },
        },
      );
      return (response as { result: Record<string, unknown> }).result;
    };
    // Form-only: the link in the tool error's text, as before.
    const text = await call({});
    expect(text.isError).toBe(true);
    expect(textOf(text)).toContain("open https://proxy.example.com/connect/gh?link=1 in a browser");
    // URL-capable: an input_required question in URL mode (2026-07-28 has no -32042).
    const asked = await call({ url: {} });
    expect(asked.resultType).toBe("input_required");
    expect(asked.inputRequests).toEqual({
      "url-1": {
        method: "elicitation/create",
        params: {
          mode: "url",
          message: expect.stringContaining("backend gh needs you to connect your account"),
          url: "https://proxy.example.com/connect/gh?link=2",
        },
      },
    });
    // Alice opens it and connects; the retry with her answer reaches her instance.
    values.alice = { gh: { access_token: "alice-token" } };
    links[1]?.connected?.();
    const inputResponses = { "url-1": { action: "accept" } };
    const done = await call({ url: {} }, { inputResponses });
    expect(done.isError).toBeUndefined();
    expect(setup.opened).toHaveLength(1);
  });

  it("sends what the instance says during a call to the session that made it", async () => {
    setup = await setUp({ alice: { gh: { GH_TOKEN: "alice-value" } } });
    const caller = await setup.connect("alice");
    const other = await setup.connect("alice");
    const heard = { caller: 0, other: 0 };
    caller.on("notifications/message", () => {
      heard.caller += 1;
    });
    other.on("notifications/message", () => {
      heard.other += 1;
    });
    await Promise.all([caller.setLoggingLevel("info"), other.setLoggingLevel("info")]);
    await other.callTool({ name: "gh__whoami" });
    await caller.callTool({ name: "gh__work" });
    expect(heard).toEqual({ caller: 1, other: 0 });
    expect(setup.opened).toEqual(["alice-value"]);
  });

  it("tells only its own principal's sessions what an instance says to all", async () => {
    setup = await setUp({ alice: { gh: { GH_TOKEN: "alice-value" } } });
    const alice = await setup.connect("alice");
    const bob = await setup.connect("bob");
    const heard = { alice: [] as string[], bob: [] as string[] };
    alice.on("notifications/message", (params) => {
      heard.alice.push(String(params.data));
    });
    bob.on("notifications/message", (params) => {
      heard.bob.push(String(params.data));
    });
    await Promise.all([alice.setLoggingLevel("debug"), bob.setLoggingLevel("debug")]);
    await alice.callTool({ name: "gh__broadcast" });
    // Anything sent to bob before this answer has arrived by now (one connection, in order).
    await bob.ping();
    expect(heard).toEqual({ alice: ["news from alice-value"], bob: [] });
  });

  it("replaces a principal's instance when a reload changes its backend", async () => {
    setup = await setUp({ alice: { gh: { GH_TOKEN: "alice-value" } } });
    const alice = await setup.connect("alice");
    await alice.callTool({ name: "gh__whoami" });
    const stopped = closed(setup.backendSides[0]);
    await setup.router.reload(
      configOf({
        mcpServers: { ...CONFIG.mcpServers, gh: { ...CONFIG.mcpServers.gh, timeoutMs: 5_000 } },
      }),
    );
    await stopped;
    expect(textOf(await alice.callTool({ name: "gh__whoami" }))).toBe("alice-value");
    expect(setup.opened).toEqual(["alice-value", "alice-value"]);
  });

  it("stops a principal's instance with its last session", async () => {
    setup = await setUp({ alice: { gh: { GH_TOKEN: "alice-value" } } });
    const first = await setup.connect("alice");
    const second = await setup.connect("alice");
    await first.callTool({ name: "gh__whoami" });
    await second.callTool({ name: "gh__whoami" });
    const stopped = closed(setup.backendSides[0]);
    await first.close();
    expect(textOf(await second.callTool({ name: "gh__whoami" }))).toBe("alice-value");
    await second.close();
    await stopped;
    const third = await setup.connect("alice");
    expect(textOf(await third.callTool({ name: "gh__whoami" }))).toBe("alice-value");
    expect(setup.opened).toEqual(["alice-value", "alice-value"]);
  });
});
