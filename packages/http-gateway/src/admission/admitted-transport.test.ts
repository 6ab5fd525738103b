import { createMemoryTransportPair, type Frame, type FrameInfo } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { admitEachFrame } from "./admitted-transport.js";
import type { AdmittedFrame, RefusedRequest } from "./frame-admission.js";

const ping = (id: number): Frame => ({ jsonrpc: "2.0", id, method: "ping" });

/** Resolves with the next `count` frames `listen` hears. */
function framesHeard(
  listen: (listener: (frame: Frame) => void) => void,
  count: number,
): Promise<Frame[]> {
  const heard: Frame[] = [];
  return new Promise((resolve) =>
    listen((frame) => {
      heard.push(frame);
      if (heard.length === count) resolve(heard);
    }),
  );
}

describe("admitEachFrame", () => {
  it("admits one frame after another, so a slow decision never lets a later frame overtake", async () => {
    const [client, server] = createMemoryTransportPair();
    type Call = { frame: Frame; info: FrameInfo; decide: (admitted: AdmittedFrame) => void };
    const calls: Call[] = [];
    const waiters: ((call: Call) => void)[] = [];
    const nextCall = () =>
      new Promise<Call>((resolve) => {
        const call = calls.shift();
        if (call === undefined) waiters.push(resolve);
        else resolve(call);
      });
    const admitted = admitEachFrame(
      server,
      (frame, info) =>
        new Promise((decide) => {
          const call = { frame, info, decide };
          const waiter = waiters.shift();
          if (waiter === undefined) calls.push(call);
          else waiter(call);
        }),
      () => {},
    );
    const heard = framesHeard((listener) => admitted.onFrame(listener), 2);
    await Promise.all([client.start(), admitted.start()]);
    await client.send(ping(1));
    await client.send(ping(2));
    const first = await nextCall();
    expect(first.frame).toEqual(ping(1));
    // The second frame waits for the first frame's decision.
    expect(calls).toEqual([]);
    first.decide({ frame: first.frame, info: first.info, answers: [], refused: [] });
    const second = await nextCall();
    expect(second.frame).toEqual(ping(2));
    second.decide({ frame: second.frame, info: second.info, answers: [], refused: [] });
    expect(await heard).toEqual([ping(1), ping(2)]);
  });

  it("sends the answers owed to the peer and reports each refusal, letting nothing on", async () => {
    const [client, server] = createMemoryTransportPair();
    const refusal = { status: 429, message: "rate limit of 1 requests per minute exceeded" };
    const answer = {
      jsonrpc: "2.0" as const,
      id: 1,
      error: { code: -32015, message: refusal.message },
    };
    const reported: RefusedRequest[] = [];
    const admitted = admitEachFrame(
      server,
      async (_frame, info) => ({
        frame: undefined,
        info,
        answers: [answer],
        refused: [{ refusal }],
      }),
      (refused) => reported.push(refused),
    );
    const routed: Frame[] = [];
    admitted.onFrame((frame) => routed.push(frame));
    const answered = framesHeard((listener) => client.onFrame(listener), 1);
    await Promise.all([client.start(), admitted.start()]);
    await client.send(ping(1));
    expect(await answered).toEqual([answer]);
    expect(reported).toEqual([{ refusal }]);
    expect(routed).toEqual([]);
  });
});
