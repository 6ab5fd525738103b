import fc from "fast-check";
import { expect } from "vitest";
import { hostileFrame, idsOwedAnswers } from "./hostile-frames.js";
import { FUZZ_SEED, scaled } from "./intensity.js";
import type { LinePeer } from "./line-peer.js";

/**
 * Sends runs of hostile frames to a stdio peer and waits, per run, for the answer to every valid
 * request in them. Fails on the first run whose answers do not come (no shrinking: the process
 * under test carries state from run to run), printing the seed.
 */
export async function fuzzStdioPeer(peer: LinePeer, toolPrefix: string): Promise<Set<string>> {
  let nextId = 1;
  const owed = new Set<string>();
  await fc.assert(
    fc.asyncProperty(
      fc.array(hostileFrame(toolPrefix), { minLength: 1, maxLength: 12 }),
      async (factories) => {
        const answers: Promise<unknown>[] = [];
        for (const factory of factories) {
          const bytes = factory(nextId++);
          for (const key of idsOwedAnswers(bytes)) {
            owed.add(key);
            answers.push(peer.answer(JSON.parse(key)));
          }
          peer.write(bytes);
          peer.write("\n");
        }
        await Promise.all(answers);
      },
    ),
    // A run whose answers do not come within the deadline fails with the seed printed.
    { seed: FUZZ_SEED, numRuns: scaled(40), endOnFailure: true, timeout: 20_000 },
  );
  // The generators must have produced requests that are owed answers, or nothing was tested.
  expect(owed.size).toBeGreaterThan(scaled(40));
  return owed;
}

/**
 * Every owed id answered once, no id (other than null) answered twice, only JSON on stdout, and the
 * peer alive.
 */
export function expectEachAnsweredOnce(peer: LinePeer, owed: Iterable<string>): void {
  expect(peer.alive, peer.stderr).toBe(true);
  expect(peer.garbage).toEqual([]);
  for (const key of owed) expect(peer.counts.get(key), `answers to ${key}`).toBe(1);
  const repeated = [...peer.counts].filter(([key, count]) => key !== "null" && count > 1);
  expect(repeated).toEqual([]);
}
