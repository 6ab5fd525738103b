import { PassThrough, Writable } from "node:stream";
import { createConnection, InvalidFrameError, TransportError } from "@patchbay/jsonrpc-core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  createStdioClientTransport,
  createStdioServerTransport,
  type StdioClientTransport,
  type StdioExitDetails,
} from "../src/index.js";
import { createProcessTracker, fixture } from "./support/process-tracker.js";
import { recordEvents } from "./support/transport-recorder.js";

const tracker = createProcessTracker();
const opened: StdioClientTransport[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((transport) => transport.close()));
});

afterAll(() => {
  expect(tracker.reapSurvivors(), "processes left running").toEqual([]);
});

function spawnEchoServer(stderrLines: string[] = []) {
  const transport = createStdioClientTransport({
    command: process.execPath,
    args: [fixture("echo-server.mjs")],
    name: "echo-server",
    // The server exits by itself on end-of-file; a long grace keeps a busy machine from SIGTERM.
    gracePeriodMs: 10_000,
    stderr: (line) => stderrLines.push(line),
    spawn: tracker.spawn,
  });
  opened.push(transport);
  return { transport, events: recordEvents(transport) };
}

describe("stdio server transport on a process's own stdin and stdout", () => {
  it("answers requests, and the process exits by itself once stdin ends", async () => {
    const stderrLines: string[] = [];
    const { transport, events } = spawnEchoServer(stderrLines);
    const connection = createConnection(transport);
    await connection.start();
    await expect(connection.request("echo", { text: "héllo 😀" })).resolves.toEqual({
      echo: { text: "héllo 😀" },
    });
    await transport.close();
    const details = (await events.closed).details as StdioExitDetails;
    // No signal: end-of-file on stdin closed the server transport and the process ended.
    expect(details).toMatchObject({ exitCode: 0, signal: null });
    expect(stderrLines).toEqual(["echo-server ready", "echo-server closed: remote"]);
    expect(events.errors).toEqual([]);
  });

  it("ends stdout when it closes, so the client sees the server go away", async () => {
    const { transport, events } = spawnEchoServer();
    const connection = createConnection(transport);
    await connection.start();
    await expect(connection.request("close")).resolves.toBe("closing");
    const event = await events.closed;
    expect(event.initiator).toBe("remote");
    expect(event.details).toMatchObject({ exitCode: 0, signal: null });
  });
});

describe("stdio server transport on given streams", () => {
  it("closes as remote when the input ends, and ends its output", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = createStdioServerTransport({ input, output });
    const events = recordEvents(transport);
    await transport.start();
    const outputEnded = new Promise((resolve) => output.on("end", resolve).resume());
    input.end('{"jsonrpc":"2.0","method":"last"}\n');
    expect((await events.closed).initiator).toBe("remote");
    expect(events.frames).toEqual([{ jsonrpc: "2.0", method: "last" }]);
    await outputEnded;
  });

  it("closes when started on an input that already ended and was read to the end", async () => {
    const input = new PassThrough();
    input.resume();
    input.end();
    await new Promise((resolve) => input.once("end", resolve));
    const transport = createStdioServerTransport({ input, output: new PassThrough() });
    const events = recordEvents(transport);
    await transport.start();
    expect((await events.closed).initiator).toBe("remote");
  });

  it("reports an invalid line as an InvalidFrameError carrying the response to send", async () => {
    const input = new PassThrough();
    const transport = createStdioServerTransport({ input, output: new PassThrough() });
    const events = recordEvents(transport);
    await transport.start();
    input.write('{"jsonrpc":"2.0","id":7,"method":3}\n');
    await events.waitForErrors(1);
    const error = events.errors[0] as InvalidFrameError;
    expect(InvalidFrameError.isInstance(error)).toBe(true);
    expect(error.response).toMatchObject({ id: 7, error: { code: -32600 } });
  });

  it("waits for drain before handing more frames to a full output", async () => {
    const callbacks: (() => void)[] = [];
    const written: string[] = [];
    const output = new Writable({
      highWaterMark: 8,
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString());
        callbacks.push(() => callback());
      },
    });
    const transport = createStdioServerTransport({ input: new PassThrough(), output });
    await transport.start();
    const first = transport.send({ jsonrpc: "2.0", method: "first" });
    const second = transport.send({ jsonrpc: "2.0", method: "second" });
    // The first line filled the stream's buffer: the second must wait in the transport, not the stream.
    expect(output.writableLength).toBe('{"jsonrpc":"2.0","method":"first"}\n'.length);
    callbacks.shift()?.();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual([
      '{"jsonrpc":"2.0","method":"first"}\n',
      '{"jsonrpc":"2.0","method":"second"}\n',
    ]);
    callbacks.shift()?.();
    await second;
  });

  it("rejects sends with a TransportError once its output fails, and closes with the error", async () => {
    const output = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    const transport = createStdioServerTransport({ input: new PassThrough(), output });
    const events = recordEvents(transport);
    await transport.start();
    const failure = await transport.send({ jsonrpc: "2.0", method: "x" }).catch((error) => error);
    expect(TransportError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toContain("stdout");
    const event = await events.closed;
    expect(event.initiator).toBe("error");
    await expect(transport.send({ jsonrpc: "2.0", method: "y" })).rejects.toSatisfy((error) =>
      TransportError.isInstance(error),
    );
  });
});
