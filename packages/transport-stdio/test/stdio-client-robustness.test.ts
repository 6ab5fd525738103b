import { execFile, spawn } from "node:child_process";
import {
  ConnectionClosedError,
  createConnection,
  InvalidFrameError,
  LineTooLongError,
  TransportError,
} from "@patchbay/jsonrpc-core";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import {
  createStdioClientTransport,
  type StdioClientTransport,
  type StdioClientTransportOptions,
  type StdioExitDetails,
} from "../src/index.js";
import { createProcessTracker, fixture, isAlive, isRunning } from "./support/process-tracker.js";
import { eventually, recordEvents } from "./support/transport-recorder.js";

const tracker = createProcessTracker();
const opened: StdioClientTransport[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((transport) => transport.close()));
});

afterAll(async () => {
  expect(tracker.pids.length).toBeGreaterThan(0);
  expect(tracker.reapSurvivors(), "processes left running or unreaped").toEqual([]);
});

function peer(
  mode: string,
  options: Partial<StdioClientTransportOptions> = {},
  args: string[] = [],
) {
  const transport = createStdioClientTransport({
    command: process.execPath,
    args: [fixture("misbehaving-peer.mjs"), mode, ...args],
    name: `peer-${mode}`,
    stderr: () => {},
    // Long enough for a child that exits by itself on a busy machine; the cases that need the
    // kill path pass SHORT_GRACE.
    gracePeriodMs: 10_000,
    spawn: tracker.spawn,
    ...options,
  });
  opened.push(transport);
  return { transport, events: recordEvents(transport) };
}

/** For the cases where the child will not exit by itself: SIGTERM and SIGKILL come quickly. */
const SHORT_GRACE = { gracePeriodMs: 100 };

const detailsOf = (event: { details?: unknown }) => event.details as StdioExitDetails;

describe("stdio client transport with a misbehaving child", () => {
  it("reports non-JSON lines as InvalidFrameError and still delivers the messages in order", async () => {
    const { transport, events } = peer("noise");
    await transport.start();
    await events.waitForFrames(2);
    expect(events.frames).toEqual([
      { jsonrpc: "2.0", method: "ready" },
      { jsonrpc: "2.0", method: "after-noise" },
    ]);
    expect(events.errors.map((error) => InvalidFrameError.isInstance(error))).toEqual([true, true]);
  });

  it("reports a partial last line and closes with the exit details when the child exits", async () => {
    const { transport, events } = peer("partial-line");
    await transport.start();
    const event = await events.closed;
    expect(events.frames).toEqual([{ jsonrpc: "2.0", method: "ready" }]);
    expect(events.errors.some((error) => InvalidFrameError.isInstance(error))).toBe(true);
    expect(event.initiator).toBe("remote");
    expect(detailsOf(event)).toMatchObject({ exitCode: 0, signal: null, pid: transport.pid });
  });

  it("reports a line over maxLineBytes as LineTooLongError, skips it, and reads on", async () => {
    const { transport, events } = peer("long-line", { maxLineBytes: 1024 }, ["4096"]);
    await transport.start();
    await events.waitForFrames(1);
    expect(events.frames).toEqual([{ jsonrpc: "2.0", method: "after-long-line" }]);
    expect(events.errors).toHaveLength(1);
    expect(LineTooLongError.isInstance(events.errors[0])).toBe(true);
  });

  it("fails only the request whose response is over maxLineBytes, naming the limit", async () => {
    const { transport, events } = peer("sized-responses", { maxLineBytes: 64 * 1024 });
    const connection = createConnection(transport, { defaultTimeoutMs: 0 });
    await connection.start();
    await events.waitForFrames(1);
    for (const envelopeLast of [false, true]) {
      const small = connection.request("size", { size: 10, envelopeLast });
      const large = connection.request("size", { size: 1024 * 1024, envelopeLast });
      const after = connection.request("size", { size: 20, envelopeLast });
      const failure = (await large.catch((error: unknown) => error)) as LineTooLongError;
      expect(LineTooLongError.isInstance(failure)).toBe(true);
      expect(failure.message).toMatch(
        /^The response to request \d+ of 1048\d{3} bytes is over the limit of 65536 bytes/,
      );
      expect(await small).toEqual({ text: "x".repeat(10) });
      expect(await after).toEqual({ text: "x".repeat(20) });
    }
  });

  it("fails a pending request at once with a clear error when the child exits mid-request", async () => {
    const { transport, events } = peer("crash-on-request");
    const connection = createConnection(transport);
    await connection.start();
    await events.waitForFrames(1);
    const failure = (await connection
      .request("tools/call", { name: "crash" })
      .catch((error: unknown) => error)) as ConnectionClosedError;
    expect(ConnectionClosedError.isInstance(failure)).toBe(true);
    expect(TransportError.isInstance(failure.cause)).toBe(true);
    expect((failure.cause as Error).message).toBe(
      'Process "peer-crash-on-request" exited with code 3',
    );
    const event = await events.closed;
    expect(event.initiator).toBe("error");
    expect(detailsOf(event)).toMatchObject({ exitCode: 3, signal: null });
  });

  it("kills a child that ignores stdin's end and SIGTERM with SIGKILL after the grace period", async () => {
    const { transport, events } = peer("ignore-sigterm", SHORT_GRACE);
    await transport.start();
    await events.waitForFrames(1);
    await transport.close();
    const event = await events.closed;
    expect(event.initiator).toBe("local");
    expect(detailsOf(event)).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(isAlive(transport.pid ?? 0)).toBe(false);
  });

  it("stops a child that closes its stdout but keeps running, and closes the transport", async () => {
    const { transport, events } = peer("close-stdout", SHORT_GRACE);
    await transport.start();
    const event = await events.closed;
    expect(event.initiator).toBe("remote");
    expect(detailsOf(event)).toMatchObject({ exitCode: null, signal: "SIGTERM" });
    expect(isAlive(transport.pid ?? 0)).toBe(false);
  });

  it("drains a flood of stderr so the child never blocks, handing every line to the handler", async () => {
    const lines: string[] = [];
    const count = 20_000;
    // The child exits by itself once its queued stderr is flushed; the long default grace period
    // keeps SIGTERM from cutting that short on a busy machine.
    const options = { stderr: (line: string) => lines.push(line) };
    const { transport, events } = peer("stderr-flood", options, [String(count)]);
    await transport.start();
    await events.waitForFrames(1);
    await transport.close();
    expect(lines).toHaveLength(count);
    expect(lines.at(-1)).toMatch(/ 19999$/);
    expect(detailsOf(await events.closed)).toMatchObject({ exitCode: 0, signal: null });
  });

  it("closes with the last 5 stderr lines, each cut to 240 characters, in the exit details", async () => {
    const { transport, events } = peer("stderr-then-exit");
    await transport.start();
    const event = await events.closed;
    expect(event.initiator).toBe("error");
    expect(detailsOf(event)).toMatchObject({
      exitCode: 3,
      signal: null,
      stderrTail: ["line 4", "line 5", "line 6", "line 7", `${"x".repeat(240)}…`],
    });
  });

  it("rejects a send to a child that closed its stdin with a TransportError naming it", async () => {
    const { transport, events } = peer("close-stdin", SHORT_GRACE);
    await transport.start();
    await events.waitForFrames(1);
    const failure = await transport
      .send({ jsonrpc: "2.0", method: "hello" })
      .catch((error: unknown) => error);
    expect(TransportError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toContain('"peer-close-stdin"');
    const event = await events.closed;
    expect(event.initiator).toBe("error");
    expect(events.errors.some((error) => TransportError.isInstance(error))).toBe(true);
  });

  it("stops grandchildren too, by signalling the child's process group", async () => {
    const { transport, events } = peer("grandchild", SHORT_GRACE);
    await transport.start();
    await events.waitForFrames(1);
    const grandchild = (events.frames[0] as unknown as { params: { grandchild: number } }).params
      .grandchild;
    tracker.track(grandchild);
    expect(isRunning(grandchild)).toBe(true);
    await transport.close();
    await eventually(() => !isRunning(grandchild));
  });
});

describe("stdio client transport after the child exited", () => {
  it("never signals the bare pid of an exited child (it may belong to another process by then)", async () => {
    const kill = vi.spyOn(process, "kill");
    let grandchild: number | undefined;
    try {
      const { transport, events } = peer("escaped-grandchild", SHORT_GRACE);
      await transport.start();
      const pid = transport.pid;
      await events.waitForFrames(1);
      grandchild = (events.frames[0] as unknown as { params: { grandchild: number } }).params
        .grandchild;
      tracker.track(grandchild);
      // The child exits at once; stdout stays open in the grandchild until the transport gives up.
      const event = await events.closed;
      expect(detailsOf(event)).toMatchObject({ exitCode: 0 });
      expect(kill.mock.calls.filter(([target]) => target === pid)).toEqual([]);
    } finally {
      kill.mockRestore();
      // The grandchild is ours to clean up; while it runs, its pid is still its own.
      if (grandchild !== undefined && isRunning(grandchild)) process.kill(grandchild, "SIGKILL");
    }
    const escaped = grandchild as number;
    await eventually(() => !isRunning(escaped));
  });
});

describe("stdio client transport lifecycle", () => {
  it("spawns one process however often start() is called", async () => {
    const spawned = tracker.pids.length;
    const { transport, events } = peer("noise");
    await Promise.all([transport.start(), transport.start()]);
    await transport.start();
    await events.waitForFrames(1);
    expect(tracker.pids.length - spawned).toBe(1);
  });

  it("stops the child when close() comes while it is still starting", async () => {
    const { transport, events } = peer("ignore-sigterm", SHORT_GRACE);
    const starting = transport.start();
    await transport.close();
    await starting;
    expect((await events.closed).initiator).toBe("local");
    expect(isAlive(transport.pid ?? 0)).toBe(false);
  });

  it("writes the child's stderr to this process's stderr by default, each line prefixed", async () => {
    const stderr = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [fixture("default-stderr-parent.mjs")], (error, _stdout, text) =>
        error ? reject(error) : resolve(text),
      );
    });
    expect(stderr.split("\n").filter((line) => line !== "")).toEqual([
      `[chatty] ${"noise ".repeat(16)}0`,
      `[chatty] ${"noise ".repeat(16)}1`,
      `[chatty] ${"noise ".repeat(16)}2`,
    ]);
  });
});

describe("stdio client transport start failures", () => {
  it("rejects start() with a TransportError naming a command that does not exist", async () => {
    const transport = createStdioClientTransport({
      command: "patchbay-no-such-command-7f3a",
      spawn: tracker.spawn,
    });
    const events = recordEvents(transport);
    const failure = await transport.start().catch((error: unknown) => error);
    expect(TransportError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toBe(
      'Cannot start "patchbay-no-such-command-7f3a": command "patchbay-no-such-command-7f3a" not found (ENOENT)',
    );
    const event = await events.closed;
    expect(event).toMatchObject({ initiator: "error", error: failure });
    expect(events.errors).toEqual([failure]);
    await expect(transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toSatisfy((error) =>
      TransportError.isInstance(error),
    );
    await transport.close();
  });

  it("names a working directory that does not exist", async () => {
    const transport = createStdioClientTransport({
      command: process.execPath,
      cwd: "/nonexistent/patchbay-test-directory",
      spawn: tracker.spawn,
    });
    recordEvents(transport);
    await expect(transport.start()).rejects.toThrow(
      'working directory "/nonexistent/patchbay-test-directory" does not exist',
    );
  });

  it("emits one local close event and spawns nothing when closed before start()", async () => {
    const spawn = vi.fn(tracker.spawn);
    const transport = createStdioClientTransport({ command: process.execPath, spawn });
    const events = recordEvents(transport);
    await transport.close();
    await transport.close();
    expect((await events.closed).initiator).toBe("local");
    await transport.start();
    expect(spawn).not.toHaveBeenCalled();
  });
});

describe("stdio client transport environment", () => {
  async function environmentOf(options: Partial<StdioClientTransportOptions>) {
    const { transport, events } = peer("environment", options);
    await transport.start();
    await events.waitForFrames(1);
    return (events.frames[0] as unknown as { params: { environment: Record<string, string> } })
      .params.environment;
  }

  it("gives the child the safe default variables and the given ones, not the parent's others", async () => {
    vi.stubEnv("PATCHBAY_TEST_SECRET", "do-not-leak");
    const environment = await environmentOf({ env: { PATCHBAY_GIVEN: "yes" } });
    expect(environment.PATCHBAY_GIVEN).toBe("yes");
    expect(environment.PATH).toBe(process.env.PATH);
    expect(environment).not.toHaveProperty("PATCHBAY_TEST_SECRET");
  });

  it("gives the child the whole environment when asked", async () => {
    vi.stubEnv("PATCHBAY_TEST_SECRET", "shared-on-purpose");
    const environment = await environmentOf({ inheritEnvironment: true });
    expect(environment.PATCHBAY_TEST_SECRET).toBe("shared-on-purpose");
  });
});

describe("exit safety net", () => {
  it("kills the children of a parent ended by a SIGTERM it does not handle, which still ends it", async () => {
    const parent = spawn(process.execPath, [fixture("exiting-parent.mjs"), "wait"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (parent.pid !== undefined) tracker.track(parent.pid);
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      parent.once("exit", (_code, signal) => resolve(signal)),
    );
    const firstLine = await new Promise<string>((resolve) => {
      let output = "";
      parent.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("\n")) resolve(output);
      });
    });
    const orphan = Number(firstLine.trim());
    tracker.track(orphan);
    expect(isRunning(orphan)).toBe(true);
    parent.kill("SIGTERM");
    expect(await exited).toBe("SIGTERM");
    await eventually(() => !isRunning(orphan));
  });

  it("kills the children of a parent that exits without closing its transports", async () => {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [fixture("exiting-parent.mjs")], (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      );
    });
    const orphan = Number(output.trim());
    expect(orphan).toBeGreaterThan(0);
    tracker.track(orphan);
    await eventually(() => !isRunning(orphan));
  });
});
