import type { JSONRPCId, JSONRPCNotification } from "@patchbay/jsonrpc-core";
import type { LoggingLevel } from "@patchbay/mcp-types";
import { createTelemetry } from "@patchbay/telemetry";
import { describe, expect, it } from "vitest";
import type { ServerRequestEvent } from "../backends/backend-events.js";
import { Switchboard, type SwitchboardSession } from "./switchboard.js";

/** A session double that records what reaches it. */
function fakeSession(
  id: string,
  over: Partial<SwitchboardSession> & { seen?: string[] } = {},
): SwitchboardSession & {
  delivered: [string, JSONRPCNotification, JSONRPCId | undefined][];
  logged: string[];
  refreshed: number;
  relayed: [string, JSONRPCId | undefined][];
} {
  const seen = over.seen ?? ["shared"];
  const session = {
    id,
    initialized: true,
    protocolVersion: undefined,
    clientCapabilities: undefined,
    logLevel: undefined as LoggingLevel | undefined,
    delivered: [] as [string, JSONRPCNotification, JSONRPCId | undefined][],
    logged: [] as string[],
    refreshed: 0,
    relayed: [] as [string, JSONRPCId | undefined][],
    sees: (backend: string) => seen.includes(backend),
    subscribesTo: () => false,
    refresh() {
      session.refreshed += 1;
    },
    deliver(backend: string, notification: JSONRPCNotification, related?: JSONRPCId) {
      session.delivered.push([backend, notification, related]);
    },
    log(_level: LoggingLevel, text: string) {
      session.logged.push(text);
    },
    async relay(request: ServerRequestEvent, related: JSONRPCId | undefined) {
      session.relayed.push([request.method, related]);
      return { from: id };
    },
    ...over,
  };
  return session;
}

function board(...sessions: SwitchboardSession[]) {
  const switchboard = new Switchboard(createTelemetry({ source: "test" }));
  for (const session of sessions) switchboard.sessions.set(session.id, session);
  return switchboard;
}

const log: JSONRPCNotification = { jsonrpc: "2.0", method: "notifications/message" };

describe("switchboard rules", () => {
  it("a backend's change refreshes every session that sees it, and no other", () => {
    const one = fakeSession("s1");
    const other = fakeSession("s2", { seen: ["elsewhere"] });
    board(one, other).route({ type: "changed", backend: "shared" }, undefined);
    expect([one.refreshed, other.refreshed]).toEqual([1, 0]);
  });

  it("a per-session backend's events reach only its owner", () => {
    const owner = fakeSession("s1");
    const other = fakeSession("s2");
    board(owner, other).route({ type: "changed", backend: "shared" }, "s1");
    expect([owner.refreshed, other.refreshed]).toEqual([1, 0]);
  });

  it("a notification about a call reaches only the caller, related to the caller's request", () => {
    const caller = fakeSession("s1");
    const other = fakeSession("s2");
    board(caller, other).route(
      {
        type: "notification",
        backend: "shared",
        notification: log,
        cause: { caller: "s1", requestId: 4 },
      },
      undefined,
    );
    expect(caller.delivered).toEqual([["shared", log, 4]]);
    expect(other.delivered).toEqual([]);
  });

  it("a notification about no call reaches every session that sees the backend", () => {
    const one = fakeSession("s1");
    const two = fakeSession("s2");
    board(one, two).route(
      { type: "notification", backend: "shared", notification: log, cause: undefined },
      undefined,
    );
    expect([one.delivered.length, two.delivered.length]).toEqual([1, 1]);
  });

  it("a backend going down is told in the log of every session that sees it", () => {
    const one = fakeSession("s1");
    board(one).route(
      {
        type: "recorded",
        event: {
          event_type: "backend.crashed",
          backend: "shared",
          data: { reason: "exit", restart_in_ms: 500 },
        },
      },
      undefined,
    );
    expect(one.logged).toEqual([expect.stringContaining('Backend "shared" is down')]);
  });

  it("a server request goes to the caller of its related call, related to the caller's request", async () => {
    const caller = fakeSession("s1");
    const other = fakeSession("s2");
    let answer: Promise<unknown> | undefined;
    board(caller, other).route(
      {
        type: "server-request",
        backend: "shared",
        method: "roots/list",
        params: {},
        signal: new AbortController().signal,
        relatedRequestId: 0,
        cause: { caller: "s2", requestId: "r-9" },
        busyCallers: ["s1", "s2"],
        respond: (promise) => {
          answer = promise;
        },
      },
      undefined,
    );
    expect(await answer).toEqual({ from: "s2" });
    expect(other.relayed).toEqual([["roots/list", "r-9"]]);
    expect(caller.relayed).toEqual([]);
  });

  it("a shared backend is told the merged capabilities and first protocol version of its sessions", () => {
    const one = fakeSession("s1", {
      clientCapabilities: { sampling: {} },
      protocolVersion: "2025-06-18",
    });
    const two = fakeSession("s2", { clientCapabilities: { roots: {} } });
    const audience = board(one, two).audienceOf("shared");
    expect(audience.capabilities).toEqual({ sampling: {}, roots: {} });
    expect(audience.protocolVersion).toBe("2025-06-18");
  });

  it("a shared backend learns of an extension any of its sessions declared", () => {
    const ui = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
    const one = fakeSession("s1", { clientCapabilities: { extensions: ui } });
    const two = fakeSession("s2", {
      clientCapabilities: { roots: {}, extensions: { "x.example/other": {} } },
    });
    expect(board(one, two).audienceOf("shared").capabilities).toEqual({
      roots: {},
      extensions: { ...ui, "x.example/other": {} },
    });
  });

  it("a shared backend gets the most verbose log level its sessions asked for", () => {
    const one = fakeSession("s1", { logLevel: "error" });
    const two = fakeSession("s2", { logLevel: "info" });
    expect(board(one, two).logLevelFor("shared")).toBe("info");
  });

  it("a per-session backend gets its owner's log level", () => {
    const one = fakeSession("s1", { logLevel: "error" });
    const two = fakeSession("s2", { logLevel: "debug" });
    expect(board(one, two).logLevelFor("shared", "s1")).toBe("error");
  });
});
