import { Writable } from "node:stream";
import { createFrameDecoder, type Frame, TransportError } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { FrameWriter } from "./stdio-framing.js";

function slowStream() {
  const written: string[] = [];
  const callbacks: ((error?: Error) => void)[] = [];
  const stream = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      callbacks.push(callback);
    },
  });
  return { stream, written, callbacks };
}

const message = (method: string) => ({ jsonrpc: "2.0" as const, method });

describe("FrameWriter", () => {
  it("keeps frames queued in order while the stream waits for drain", async () => {
    const { stream, written, callbacks } = slowStream();
    const writer = new FrameWriter(stream, () => "the test stream");
    const sends = ["a", "b", "c"].map((method) => writer.send(message(method)));
    expect(stream.writableLength).toBe(`${JSON.stringify(message("a"))}\n`.length);
    while (written.length < 3) {
      callbacks.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    callbacks.shift()?.();
    await Promise.all(sends);
    expect(written.map((line) => JSON.parse(line).method)).toEqual(["a", "b", "c"]);
  });

  it("rejects queued and later sends with the failure", async () => {
    const { stream } = slowStream();
    const writer = new FrameWriter(stream, () => "the test stream");
    void writer.send(message("in-the-stream")).catch(() => {});
    const queued = writer.send(message("queued"));
    const failure = writer.fail(new TransportError("the test stream broke"));
    await expect(queued).rejects.toBe(failure);
    await expect(writer.send(message("later"))).rejects.toBe(failure);
  });

  it("names the destination and the code when a write fails", async () => {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    stream.on("error", () => {});
    const writer = new FrameWriter(stream, () => 'the stdin of "github"');
    await expect(writer.send(message("x"))).rejects.toThrow(
      'Cannot write to the stdin of "github": it is closed (EPIPE)',
    );
  });

  it("ends the stream after the queued frames", async () => {
    const { stream, written, callbacks } = slowStream();
    const writer = new FrameWriter(stream, () => "the test stream");
    const sent = writer.send(message("last"));
    writer.end();
    const finished = new Promise((resolve) => stream.on("finish", resolve));
    callbacks.shift()?.();
    await sent;
    await finished;
    expect(written).toHaveLength(1);
    await expect(writer.send(message("after-end"))).rejects.toSatisfy((error) =>
      TransportError.isInstance(error),
    );
  });

  it("writes the first frame of a turn at once and the rest of the turn as one chunk", async () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk.toString());
        callback();
      },
    });
    const writer = new FrameWriter(stream, () => "the test stream");
    const sends = ["a", "b", "c"].map((method) => writer.send(message(method)));
    expect(chunks).toHaveLength(1);
    await Promise.all(sends);
    expect(chunks).toHaveLength(2);
    expect(
      chunks[1]
        ?.split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line).method),
    ).toEqual(["b", "c"]);
    // A later turn starts over: its first frame goes out at once again.
    await new Promise((resolve) => setImmediate(resolve));
    void writer.send(message("d"));
    expect(chunks).toHaveLength(3);
  });

  it("writes a relayed large result in pieces, as one line in the queue", async () => {
    const resultText = `{ "text" : "${"é".repeat(70_000)}" }`;
    const line = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":${resultText}}\n`);
    let decoded: Frame | undefined;
    const decoder = createFrameDecoder({
      relayLargeResults: true,
      onFrame: (frame) => {
        decoded = frame;
      },
      onError: (error) => {
        throw error;
      },
    });
    // Two chunks: the line is decoded as it arrives, and its bytes are kept.
    decoder.push(line.subarray(0, 100_000));
    decoder.push(line.subarray(100_000));
    const { result } = decoded as { result: unknown };
    const written: Buffer[] = [];
    const callbacks: (() => void)[] = [];
    const stream = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk);
        callbacks.push(callback);
      },
    });
    const writer = new FrameWriter(stream, () => "the test stream");
    const sends = [writer.send({ jsonrpc: "2.0", id: 2, result }), writer.send(message("next"))];
    const relayedLine = `{"jsonrpc":"2.0","id":2,"result":${resultText}}\n`;
    // The pieces are in the stream; the next line waits for drain.
    expect(stream.writableLength).toBe(Buffer.byteLength(relayedLine));
    while (written.length < 5) {
      callbacks.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    callbacks.shift()?.();
    await Promise.all(sends);
    expect(written).toHaveLength(5);
    expect(Buffer.concat(written).toString()).toBe(
      `${relayedLine}${JSON.stringify(message("next"))}\n`,
    );
  });
});
