import { PassThrough } from "node:stream";
import type { Frame, FrameInfo } from "@patchbay/jsonrpc-core";
import { afterAll, describe, expect, it } from "vitest";
import { createStdioClientTransport, createStdioServerTransport } from "../src/index.js";
import { RELATED_REQUEST_META_KEY } from "../src/stdio-framing.js";
import { createProcessTracker } from "./support/process-tracker.js";

const tracker = createProcessTracker();

afterAll(() => {
  expect(tracker.reapSurvivors(), "processes left running").toEqual([]);
});

function firstLine(stream: PassThrough): Promise<unknown> {
  return new Promise((resolve) => {
    let text = "";
    stream.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const newline = text.indexOf("\n");
      if (newline !== -1) resolve(JSON.parse(text.slice(0, newline)));
    });
  });
}

describe("the relation of a server's message to the client request it belongs to", () => {
  it("is written into params._meta by the server transport, for requests and notifications", async () => {
    const output = new PassThrough();
    const server = createStdioServerTransport({ input: new PassThrough(), output });
    await server.start();
    const line = firstLine(output);
    await server.send(
      {
        jsonrpc: "2.0",
        id: 4,
        method: "sampling/createMessage",
        params: { maxTokens: 5, _meta: { kept: true } },
      },
      { relatedRequestId: "call-7" },
    );
    expect(await line).toEqual({
      jsonrpc: "2.0",
      id: 4,
      method: "sampling/createMessage",
      params: { maxTokens: 5, _meta: { kept: true, [RELATED_REQUEST_META_KEY]: "call-7" } },
    });
    await server.close();
  });

  it("is left out of responses, progress and messages sent with no relation", async () => {
    const output = new PassThrough();
    const server = createStdioServerTransport({ input: new PassThrough(), output });
    await server.start();
    const lines: unknown[] = [];
    const three = new Promise<void>((resolve) => {
      let text = "";
      output.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
        const parts = text.split("\n");
        text = parts.pop() ?? "";
        for (const part of parts) lines.push(JSON.parse(part));
        if (lines.length === 3) resolve();
      });
    });
    await server.send({ jsonrpc: "2.0", id: 1, result: {} }, { relatedRequestId: 1 });
    await server.send({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "info" },
    });
    const progress = {
      jsonrpc: "2.0" as const,
      method: "notifications/progress",
      params: { progressToken: 7, progress: 1 },
    };
    await server.send(progress, { relatedRequestId: 1 });
    await three;
    expect(lines).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } },
      progress,
    ]);
    await server.close();
  });

  it("is read back by the client transport into FrameInfo.relatedRequestId and removed", async () => {
    const line = JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "roots/list",
      params: { _meta: { [RELATED_REQUEST_META_KEY]: 3, other: "x" } },
    });
    const client = createStdioClientTransport({
      command: process.execPath,
      args: ["-e", `process.stdout.write(${JSON.stringify(`${line}\n`)}); process.stdin.resume();`],
      name: "related-peer",
      spawn: tracker.spawn,
    });
    const received = new Promise<[Frame, FrameInfo]>((resolve) =>
      client.onFrame((frame, info) => resolve([frame, info])),
    );
    await client.start();
    const [frame, info] = await received;
    expect(info.relatedRequestId).toBe(3);
    expect(frame).toEqual({
      jsonrpc: "2.0",
      id: 9,
      method: "roots/list",
      params: { _meta: { other: "x" } },
    });
    await client.close();
  });
});
