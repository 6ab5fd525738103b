import { afterEach, describe, expect, it } from "vitest";
import { closeSdk, connectSdk, sampleEntry, startTestProxy } from "./proxy-helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The message of a JSON log line. */
const messageOf = (line: string) => (JSON.parse(line) as { message?: string }).message ?? "";
const levelOf = (line: string) => (JSON.parse(line) as { level?: string }).level;

describe("the proxy logs backend state changes", () => {
  it("says a backend whose command does not exist failed, is restarting, and was given up", async () => {
    const proxy = await startTestProxy({
      mcpServers: {
        missing: {
          command: "patchbay-no-such-command",
          restart: { initialDelayMs: 10, maxAttempts: 2 },
        },
      },
    });
    cleanups.push(() => proxy.stop());
    await proxy.waitForLog((line) => messageOf(line).includes("gave up"));
    const lines = proxy.logs.filter((line) => messageOf(line).startsWith("backend missing"));
    const failed =
      'backend missing is down: start failed: Cannot start "missing": command "patchbay-no-such-command" not found (ENOENT)';
    expect(lines.map(messageOf)).toEqual([
      `${failed}; restarting in 10 ms`,
      `${failed}; restarting in 20 ms`,
      `${failed}; gave up after 2 consecutive failed runs`,
    ]);
    expect(lines.map(levelOf)).toEqual(["warn", "warn", "error"]);
  });

  it("says how a backend that failed at start exited and what it last wrote to stderr", async () => {
    const script = [
      "for (let line = 1; line <= 7; line++) console.error('starting, step ' + line);",
      "console.error('API_URL is not set');",
      "process.exit(3);",
    ].join("\n");
    const proxy = await startTestProxy({
      mcpServers: { broken: { command: process.execPath, args: ["-e", script], restart: false } },
    });
    cleanups.push(() => proxy.stop());
    const line = await proxy.waitForLog((text) => messageOf(text).startsWith("backend broken"));
    expect(messageOf(line)).toBe(
      "backend broken is down: start failed: exited with code 3; restart is disabled; its last stderr lines: " +
        '"starting, step 4", "starting, step 5", "starting, step 6", "starting, step 7", "API_URL is not set"',
    );
    expect(levelOf(line)).toBe("error");
  });

  it("says a backend killed with SIGKILL is down by that signal, then running again", async () => {
    // A stdio backend's transport tells its child's pid.
    const transports: { readonly pid?: number }[] = [];
    const proxy = await startTestProxy(
      { mcpServers: { sample: sampleEntry({ restart: { initialDelayMs: 10 } }) } },
      {
        onBackendTransport: (_backend, transport) =>
          transports.push(transport as { readonly pid?: number }),
      },
    );
    cleanups.push(() => proxy.stop());
    const running = await proxy.waitForLog((line) =>
      messageOf(line).startsWith("backend sample is running ("),
    );
    expect(messageOf(running)).toMatch(
      /^backend sample is running \(stdio, protocol \S+, \d+ tools\)$/,
    );
    const pid = transports[0]?.pid;
    expect(pid).toBeTypeOf("number");
    process.kill(pid as number, "SIGKILL");
    const crashed = await proxy.waitForLog((line) => messageOf(line).includes("is down"));
    expect(messageOf(crashed)).toBe(
      "backend sample is down: killed by SIGKILL; restarting in 10 ms",
    );
    expect(levelOf(crashed)).toBe("warn");
    await proxy.waitForLog((line) =>
      messageOf(line).startsWith("backend sample is running again ("),
    );
    expect(transports).toHaveLength(2);
    const connected = await connectSdk(proxy.url);
    cleanups.push(() => closeSdk(connected));
    const result = await connected.client.callTool({
      name: "sample__echo",
      arguments: { message: "back" },
    });
    expect(result.content).toEqual([{ type: "text", text: "back" }]);
  });
});
