import { describe, expect, it } from "vitest";
import {
  cleanStats,
  expiredStatusIds,
  parseStoredStatus,
  replicaStatuses,
} from "./replica-status.js";

const stats = {
  sessions: 1,
  callsInFlight: 0,
  callsServed: 3,
  callsPerMinute: 3,
  errorsPerMinute: 0,
};
const stored = (record: Record<string, unknown>) => JSON.stringify(record);

describe("replica statuses", () => {
  it("keeps only the known counts, and none when one is not a count", () => {
    expect(cleanStats({ ...stats, token: "secret" })).toEqual(stats);
    expect(cleanStats({ ...stats, sessions: -1 })).toBeUndefined();
    expect(cleanStats({ ...stats, sessions: "1" })).toBeUndefined();
    expect(cleanStats(null)).toBeUndefined();
  });

  it("ignores a stored record that is malformed or longer than 1 KiB", () => {
    expect(parseStoredStatus("{")).toBeUndefined();
    expect(parseStoredStatus(stored({ startedAt: 1, beatAt: 2 }))).toBeUndefined();
    const long = stored({ startedAt: 1, beatAt: 2, expiresAt: 3, pad: "x".repeat(1100) });
    expect(parseStoredStatus(long)).toBeUndefined();
    expect(parseStoredStatus(stored({ startedAt: 1, beatAt: 2, expiresAt: 3, stats }))).toEqual({
      startedAt: 1,
      beatAt: 2,
      expiresAt: 3,
      stats,
    });
  });

  it("lists live replicas by id first, then the others most recently seen first", () => {
    const records = {
      c: stored({ startedAt: 1, beatAt: 90, expiresAt: 150 }),
      b: stored({ startedAt: 1, beatAt: 80, expiresAt: 140 }),
      killed: stored({ startedAt: 1, beatAt: 95, expiresAt: 155 }),
      expired: stored({ startedAt: 1, beatAt: 10, expiresAt: 70 }),
      stopped: stored({ startedAt: 1, beatAt: 50, expiresAt: 50, leftAt: 50 }),
    };
    const statuses = replicaStatuses(records, (id) => id !== "killed", 100);
    expect(statuses.map(({ replicaId, state }) => `${replicaId}:${state}`)).toEqual([
      "b:live",
      "c:live",
      "killed:gone",
      "stopped:left",
      "expired:gone",
    ]);
  });

  it("decides the state of every record, however many", () => {
    const records = Object.fromEntries(
      Array.from({ length: 150 }, (_, index) => [
        `r${index}`,
        stored({ startedAt: 1, beatAt: 1, expiresAt: 1000 }),
      ]),
    );
    expect(replicaStatuses(records, () => true, 10)).toHaveLength(150);
  });

  it("expires records past the retention, and unreadable ones", () => {
    const records = {
      fresh: stored({ startedAt: 1, beatAt: 90, expiresAt: 150 }),
      old: stored({ startedAt: 1, beatAt: 10, expiresAt: 20 }),
      broken: "nope",
    };
    expect(expiredStatusIds(records, 50, 100).sort()).toEqual(["broken", "old"]);
  });
});
