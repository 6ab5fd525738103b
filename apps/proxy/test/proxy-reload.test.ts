import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeSdk,
  connectSdk,
  postJson,
  proxyCli,
  sampleEntry,
  startTestProxy,
  type TestProxy,
  writeConfig,
} from "./proxy-helpers.js";

const ONE = "reload-one-0123456789abcdef";
const TWO = "reload-two-0123456789abcdef";

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "reload-test", version: "1.0.0" },
  },
};

let proxy: TestProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
});

const before = {
  mcpServers: { sample: sampleEntry() },
  profiles: { team: { servers: ["sample"] }, gone: { servers: ["sample"] } },
  auth: { tokens: [{ name: "one", token: ONE }] },
};

describe("reloading the proxy's config", () => {
  it("applies backends, profiles and tokens to live sessions, and refuses a bad file", async () => {
    proxy = await startTestProxy(before);
    const team = await connectSdk(proxy.at("/mcp/team"), { token: ONE });
    const gone = await connectSdk(proxy.at("/mcp/gone"), { token: ONE });
    try {
      const changed = new Promise<void>((resolve) =>
        team.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
      );
      const dashboardWith = async (token: string) =>
        (
          await fetch(proxy?.at("/dashboard/api/snapshot") as URL, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).status;
      expect(
        (await postJson(proxy.at("/mcp"), initialize, { authorization: `Bearer ${TWO}` })).status,
      ).toBe(401);
      expect(await dashboardWith(TWO)).toBe(401);

      writeFileSync(
        proxy.configPath,
        JSON.stringify({
          mcpServers: { sample: sampleEntry(), extra: sampleEntry() },
          profiles: { team: { servers: ["sample", "extra"] } },
          auth: {
            tokens: [
              { name: "one", token: ONE },
              { name: "two", token: TWO },
            ],
          },
          limits: { requestsPerMinute: 100 },
          modern: { tasks: { maxTasksPerCaller: 5 } },
        }),
      );
      expect(await proxy.proxy.reload()).toBe(true);
      await proxy.waitForLog((line) =>
        line.includes("config reloaded: 2 backends, 1 profiles, 2 tokens"),
      );
      await proxy.waitForLog((line) =>
        line.includes("limits changed: restart the proxy to apply it"),
      );
      await proxy.waitForLog((line) =>
        line.includes("modern changed: restart the proxy to apply it"),
      );

      // The team session goes on, and sees the added backend.
      await changed;
      const echoed = await team.client.callTool({
        name: "extra__echo",
        arguments: { message: "added" },
      });
      expect(echoed.content).toEqual([{ type: "text", text: "added" }]);
      // The session of the dropped profile ended; the new token gets in.
      await expect(gone.client.listTools()).rejects.toThrow();
      expect(
        (await postJson(proxy.at("/mcp"), initialize, { authorization: `Bearer ${TWO}` })).status,
      ).toBe(200);
      expect(await dashboardWith(TWO)).toBe(200);
      // A new token's value is a secret from now on, as the first ones are.
      expect(proxy.logs.join("\n")).not.toContain(TWO);

      writeFileSync(proxy.configPath, "{ this is not json");
      expect(await proxy.proxy.reload()).toBe(false);
      await proxy.waitForLog((line) => line.includes("keeping the previous config"));
      const still = await team.client.callTool({
        name: "extra__echo",
        arguments: { message: "still" },
      });
      expect(still.content).toEqual([{ type: "text", text: "still" }]);
      // A shared backend that signs in with OAuth is refused too: the proxy would reach it without
      // a token (it signs in per principal only).
      const remote = { url: "https://mcp.example.com/mcp", oauth: { clientId: "patchbay" } };
      writeFileSync(proxy.configPath, JSON.stringify({ mcpServers: { remote } }));
      expect(await proxy.proxy.reload()).toBe(false);
      await proxy.waitForLog((line) =>
        line.includes("signs in to a backend with OAuth only per principal"),
      );
    } finally {
      await closeSdk(team);
      await closeSdk(gone).catch(() => {});
    }
  });
});

describe("patchbay-proxy --watch and SIGHUP", () => {
  it("reloads when the file changes and on SIGHUP", async () => {
    const file = writeConfig(before);
    const child = spawn(
      process.execPath,
      [proxyCli, "--port", "0", "--config", file.path, "--watch", "--log-format", "json"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    const waiters = new Set<() => void>();
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      for (const waiter of [...waiters]) waiter();
    });
    /** Resolves once stderr holds `count` lines containing `text`. */
    const logged = (text: string, count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (stderr.split("\n").filter((line) => line.includes(text)).length < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    try {
      await logged("listening on", 1);
      writeFileSync(
        file.path,
        JSON.stringify({ ...before, profiles: { team: { servers: ["sample"] } } }),
      );
      await logged("config reloaded: 1 backends, 1 profiles, 1 tokens", 1);
      child.kill("SIGHUP");
      await logged("SIGHUP: reloading the config", 1);
      await logged("config reloaded: 1 backends, 1 profiles, 1 tokens", 2);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, "exit");
        child.kill("SIGTERM");
        await exited;
      }
      file.remove();
    }
  });
});
