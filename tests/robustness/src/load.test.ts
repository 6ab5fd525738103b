import type { ChildProcess } from "node:child_process";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { HttpPeer } from "./support/http-peer.js";
import { scaled } from "./support/intensity.js";
import {
  type GatewayProcess,
  sampleBackend,
  startGateway,
  startSampleHttp,
} from "./support/launch.js";
import { idKey } from "./support/line-peer.js";
import { exited, survivors } from "./support/processes.js";

const gateways: GatewayProcess[] = [];
const servers: { child: ChildProcess; stop(): Promise<void> }[] = [];

afterEach(async () => {
  for (const gateway of gateways.splice(0)) expect(await gateway.stop()).toEqual([]);
  for (const server of servers.splice(0)) {
    await server.stop();
    await exited(server.child);
  }
});

afterAll(() => {
  expect(survivors()).toEqual([]);
});

const textOf = (result: unknown) =>
  (result as { content?: { text: string }[] } | undefined)?.content?.[0]?.text;

describe("load: many sessions, many calls, every answer counted", () => {
  it("answers every call of 20 concurrent HTTP sessions against the sample backend", async () => {
    const server = await startSampleHttp();
    servers.push(server);
    const sessions = Array.from({ length: 20 }, () => new HttpPeer(server.url));
    await Promise.all(sessions.map((session) => session.initialize()));
    const callsPerSession = scaled(50);
    let sent = 0;
    let received = 0;
    await Promise.all(
      sessions.map(async (session, sessionIndex) => {
        // Each session keeps 5 calls in flight.
        const lanes = Array.from({ length: 5 }, async (_, lane) => {
          for (let call = lane; call < callsPerSession; call += 5) {
            const id = `s${sessionIndex}-c${call}`;
            sent += 1;
            const response = await session.request(
              "tools/call",
              { name: "echo", arguments: { message: id } },
              id,
            );
            expect(textOf(response.result)).toBe(id);
            received += 1;
          }
        });
        await Promise.all(lanes);
      }),
    );
    expect(sent).toBe(20 * callsPerSession);
    expect(received).toBe(sent);
    for (const session of sessions) {
      expect([...session.counts].filter(([key, count]) => key !== "null" && count !== 1)).toEqual(
        [],
      );
    }
  });

  it("answers every call sent at once to several gateway processes", async () => {
    const started = await Promise.all(
      Array.from({ length: 3 }, () => startGateway({ mcpServers: { sample: sampleBackend() } })),
    );
    gateways.push(...started);
    const callsPerGateway = scaled(300);
    let sent = 0;
    let received = 0;
    await Promise.all(
      started.map(async ({ peer }, gatewayIndex) => {
        const answers = Array.from({ length: callsPerGateway }, (_, call) => {
          const message = `g${gatewayIndex}-c${call}`;
          sent += 1;
          const method = call % 10 === 0 ? "tools/list" : "tools/call";
          const params =
            method === "tools/list" ? {} : { name: "sample__echo", arguments: { message } };
          return peer.request(method, params).then((response) => {
            expect(response.error).toBeUndefined();
            if (method === "tools/call") expect(textOf(response.result)).toBe(message);
            received += 1;
            return response;
          });
        });
        for (const response of await Promise.all(answers)) {
          expect(peer.counts.get(idKey(response.id))).toBe(1);
        }
      }),
    );
    expect(sent).toBe(3 * callsPerGateway);
    expect(received).toBe(sent);
  });
});
