import { PassThrough, Writable } from "node:stream";
import {
  createConnection,
  type Frame,
  InvalidFrameError,
  TransportError,
} from "@patchbay/jsonrpc-core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  createStdioClientTransport,
  createStdioServerTransport,
  type StdioClientTransport,
  type StdioExitDetails,
} from "../src/index.js";
// @ts-expect-error: a plain JavaScript fixture, also run as a child process.
import { resultText } from "./fixtures/raw-result-server.mjs";
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

/**
 * A relay as a gateway builds it: a client of a child server (relayLargeResults as given) and a
 * server transport over in-process streams whose `relay` requests are answered with what the child
 * answers. Returns the line the relay writes for a `relay` request with id "front".
 */
async function relayOnce(chars: number, relayLargeResults: boolean): Promise<string> {
  const backend = createStdioClientTransport({
    command: process.execPath,
    args: [fixture("raw-result-server.mjs")],
    name: "raw-result-server",
    gracePeriodMs: 10_000,
    relayLargeResults,
    spawn: tracker.spawn,
  });
  opened.push(backend);
  const backendConnection = createConnection(backend);
  await backendConnection.start();
  const input = new PassThrough();
  const output = new PassThrough();
  const front = createConnection(createStdioServerTransport({ input, output }));
  front.handle("relay", () => backendConnection.request("call", { chars }));
  await front.start();
  const written: Buffer[] = [];
  const line = new Promise<string>((resolve) => {
    output.on("data", (chunk: Buffer) => {
      written.push(chunk);
      const text = Buffer.concat(written).toString("utf8");
      if (text.endsWith("\n")) resolve(text);
    });
  });
  input.write(`${JSON.stringify({ jsonrpc: "2.0", id: "front", method: "relay" })}\n`);
  const answer = await line;
  await front.close();
  return answer;
}

describe("relaying large results (relayLargeResults)", () => {
  it("writes a large result on exactly as the child wrote it, under the client's id", async () => {
    const line = await relayOnce(100_000, true);
    expect(line).toBe(`{"jsonrpc":"2.0","id":"front","result":${resultText(100_000)} }\n`);
    const frame = JSON.parse(line) as Frame & { result: { content: { text: string }[] } };
    expect(frame.result.content[0]?.text.startsWith('aé😀A\\"')).toBe(true);
  });

  it("serializes the result again without it, with the same content", async () => {
    const line = await relayOnce(100_000, false);
    expect(line.startsWith('{"jsonrpc":"2.0","id":"front","result":{"content":[{')).toBe(true);
    expect(JSON.parse(line)).toEqual({
      jsonrpc: "2.0",
      id: "front",
      result: JSON.parse(resultText(100_000)),
    });
  });
});
