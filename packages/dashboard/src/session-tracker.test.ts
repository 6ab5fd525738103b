import {
  createConnection,
  createMemoryTransportPair,
  type FrameInfo,
  type Transport,
} from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig, type Router } from "@patchbay/router";
import { afterEach, describe, expect, it } from "vitest";
import { trackRouterSessions } from "./session-tracker.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A router with no backend, and a way to open client sessions on it over memory pairs. */
async function routerWithClients() {
  const router: Router = createRouter({
    config: parseGatewayConfig({ mcpServers: {}, profiles: { team: { backends: [] } } }).config,
    connect: () => {
      throw new Error("no backends");
    },
  });
  await router.start();
  const clients: { close(): Promise<void> }[] = [];
  cleanup = async () => {
    await Promise.all(clients.map((client) => client.close()));
    await router.close();
  };
  /** Serves a client named `name`, whose frames carry `extra` (as an HTTP front's auth). */
  const connect = async (
    name: string,
    extra: Record<string, unknown> | undefined,
    profile?: string,
  ) => {
    const [clientSide, routerSide] = createMemoryTransportPair();
    const served: Transport =
      extra === undefined
        ? routerSide
        : {
            start: () => routerSide.start(),
            send: (frame, options) => routerSide.send(frame, options),
            close: () => routerSide.close(),
            onError: (listener) => routerSide.onError(listener),
            onClose: (listener) => routerSide.onClose(listener),
            onFrame: (listener) =>
              routerSide.onFrame((frame, info: FrameInfo) => listener(frame, { ...info, extra })),
          };
    const session = await router.serve(served, profile === undefined ? {} : { profile });
    const client = createConnection(clientSide);
    clients.push(client);
    await client.start();
    await client.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name, version: "3.1" },
    });
    return { client, session };
  };
  return { router, connect };
}

describe("trackRouterSessions", () => {
  it("lists each client session with its name, version, profile and token name, oldest first", async () => {
    const { router, connect } = await routerWithClients();
    let clock = 1_000;
    const tracker = trackRouterSessions(router, { now: () => clock });
    await connect("over-http", { authInfo: { name: "team-token", token: "secret" } }, "team");
    clock = 2_000;
    await connect("over-ws", { auth: { name: "admin" } });
    clock = 3_000;
    await connect("no-auth", undefined);
    expect(tracker.sessions()).toEqual([
      {
        client: "over-http",
        clientVersion: "3.1",
        profile: "team",
        token: "team-token",
        startedAt: 1_000,
        lastActiveAt: 1_000,
      },
      {
        client: "over-ws",
        clientVersion: "3.1",
        profile: undefined,
        token: "admin",
        startedAt: 2_000,
        lastActiveAt: 2_000,
      },
      {
        client: "no-auth",
        clientVersion: "3.1",
        profile: undefined,
        token: undefined,
        startedAt: 3_000,
        lastActiveAt: 3_000,
      },
    ]);
    expect(JSON.stringify(tracker.sessions())).not.toContain("secret");
    tracker.close();
  });

  it("drops a session when it closes, and leaves out the sessions it is told to ignore", async () => {
    const { router, connect } = await routerWithClients();
    const ignored = new Set<string>();
    const tracker = trackRouterSessions(router, { ignore: (id) => ignored.has(id) });
    const leaving = await connect("leaving", undefined);
    const own = await connect("own", undefined);
    ignored.add(own.session.id);
    await connect("staying", undefined);
    const closed = new Promise<void>((resolve) => {
      router.onSession((event) => {
        if (event.type === "closed" && event.session === leaving.session) resolve();
      });
    });
    await leaving.client.close();
    await closed;
    expect(tracker.sessions().map((session) => session.client)).toEqual(["staying"]);
    tracker.close();
  });

  it("tells when a session's last request ended, and its caller, still for a while after it closed", async () => {
    const { router, connect } = await routerWithClients();
    let clock = 1_000;
    const tracker = trackRouterSessions(router, { now: () => clock });
    const oauth = await connect("agent", { authInfo: { name: "https://id.example#alice" } });
    const open = await connect("quiet", undefined);
    clock = 4_000;
    tracker.touch(oauth.session.id);
    expect(tracker.sessions().map((session) => [session.client, session.lastActiveAt])).toEqual([
      ["agent", 4_000],
      ["quiet", 1_000],
    ]);
    expect(tracker.callerOf(oauth.session.id)).toBe("https://id.example#alice");
    expect(tracker.callerOf(open.session.id)).toBe(undefined);
    const closed = new Promise<void>((resolve) => {
      router.onSession((event) => {
        if (event.type === "closed" && event.session === oauth.session) resolve();
      });
    });
    await oauth.client.close();
    await closed;
    expect(tracker.callerOf(oauth.session.id)).toBe("https://id.example#alice");
    tracker.close();
  });

  it("names the caller of a modern front's session without listing it, still after it closed", async () => {
    const { router } = await routerWithClients();
    const tracker = trackRouterSessions(router, { maxNameLength: 24 });
    const opened = new Promise<string>((resolve) => {
      router.onSession((event) => {
        if (event.type === "opened" && event.modern) resolve(event.session.id);
      });
    });
    const answer = await router.modern().handle(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      },
      {
        signal: new AbortController().signal,
        notify: () => {},
        caller: "https://id.example#bob-with-a-long-subject",
      },
    );
    expect(answer).toHaveProperty("result");
    const id = await opened;
    expect(tracker.sessions()).toEqual([]);
    expect(tracker.callerOf(id)).toBe("https://id.example#bob-w");
    const closed = new Promise<void>((resolve) => {
      router.onSession((event) => {
        if (event.type === "closed" && event.session.id === id) resolve();
      });
    });
    await router.close();
    await closed;
    expect(tracker.callerOf(id)).toBe("https://id.example#bob-w");
    tracker.close();
  });

  it("cuts client names a peer made long, and stops listening once closed", async () => {
    const { router, connect } = await routerWithClients();
    const tracker = trackRouterSessions(router, { maxNameLength: 5 });
    await connect("a-very-long-client-name", { auth: { name: "token-with-a-long-name" } });
    expect(tracker.sessions()).toMatchObject([{ client: "a-ver", token: "token" }]);
    tracker.close();
    await connect("later", undefined);
    expect(tracker.sessions().map((session) => session.client)).toEqual(["a-ver"]);
  });
});
