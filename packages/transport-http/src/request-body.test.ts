import { once } from "node:events";
import { Agent, createServer, type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { BodyTooLargeError, readBody } from "./request-body.js";

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/**
 * A server that reads each body a turn after the request came, as a handler does after admission:
 * a small body sent with its headers is in the request's buffer by then (recorded as `buffered`).
 */
async function startServer(maxBytes: number) {
  const seen: { buffered: boolean; body: string | undefined; error: unknown; ended: boolean }[] =
    [];
  const server = createServer((incoming: IncomingMessage, response) => {
    const read = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const buffered = incoming.readableLength === Number(incoming.headers["content-length"]);
      try {
        const body = await readBody(incoming, maxBytes);
        if (!incoming.readableEnded) await once(incoming, "end");
        seen.push({ buffered, body, error: undefined, ended: incoming.readableEnded });
        response.end(body);
      } catch (error) {
        seen.push({ buffered, body: undefined, error, ended: incoming.readableEnded });
        response.writeHead(413).end();
      }
    };
    void read();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, seen };
}

function post(port: number, agent: Agent, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ port, host: "127.0.0.1", method: "POST", agent }, (answer) => {
      let text = "";
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => {
        text += chunk;
      });
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, text }));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

describe("readBody", () => {
  it("takes a body received whole from the buffer, ending the request and keeping the connection", async () => {
    const { port, seen } = await startServer(1000);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await post(port, agent, '{"text":"héllo"}');
      const second = await post(port, agent, "");
      expect(first).toEqual({ status: 200, text: '{"text":"héllo"}' });
      expect(second).toEqual({ status: 200, text: "" });
      expect(seen).toEqual([
        { buffered: true, body: '{"text":"héllo"}', error: undefined, ended: true },
        { buffered: true, body: "", error: undefined, ended: true },
      ]);
    } finally {
      agent.destroy();
    }
  });

  it("refuses a body received whole over the limit, as one read as a stream", async () => {
    const { port, seen } = await startServer(10);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await post(port, agent, "x".repeat(11))).status).toBe(413);
      expect(seen[0]?.buffered).toBe(true);
      expect(seen[0]?.error).toBeInstanceOf(BodyTooLargeError);
      expect(seen[0]?.error).toMatchObject({ drained: true });
      expect((await post(port, agent, "x".repeat(10))).text).toBe("x".repeat(10));
    } finally {
      agent.destroy();
    }
  });
});
