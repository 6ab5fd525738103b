import { describe, expect, it } from "vitest";
import {
  BUS_MESSAGE_WINDOW_MS,
  ClusterSecretError,
  createClusterSeal,
  MIN_CLUSTER_SECRET_LENGTH,
} from "./cluster-seal.js";
import { createRejections, REJECTION_LOG_INTERVAL_MS } from "./rejections.js";

const SECRET = "a-cluster-secret-of-forty-characters-000";
const NEW_SECRET = "a-new-cluster-secret-of-forty-characters";

/** A seal on a clock the test moves. */
function sealAt(secrets: readonly string[], start = 1_000_000) {
  const clock = { now: start };
  return { seal: createClusterSeal(secrets, () => clock.now), clock };
}

describe("the cluster seal", () => {
  it("opens a bus message on its own channel, once, within the window", () => {
    const { seal, clock } = sealAt([SECRET]);
    const other = sealAt([SECRET]).seal;
    const sealed = seal.seal("p:modern:a", '{"t":"call","x":1.5}');
    expect(sealed).not.toContain(SECRET);
    expect(other.open("p:modern:b", sealed)).toBeUndefined();
    expect(other.open("p:modern:a", sealed)).toBe('{"t":"call","x":1.5}');
    // The same message again is a replay.
    expect(other.open("p:modern:a", sealed)).toBeUndefined();
    // Two messages with the same payload in the same millisecond are two messages.
    const twice = [seal.seal("c", "same"), seal.seal("c", "same")];
    expect(twice.map((text) => other.open("c", text))).toEqual(["same", "same"]);
    const late = seal.seal("c", "late");
    clock.now += BUS_MESSAGE_WINDOW_MS + 1;
    expect(sealAt([SECRET], clock.now).seal.open("c", late)).toBeUndefined();
  });

  it("refuses what is forged, altered, from the future or sealed with another secret", () => {
    const { seal } = sealAt([SECRET]);
    const sealed = seal.seal("c", '{"caller":"alice"}');
    const fresh = () => sealAt([SECRET]).seal;
    expect(fresh().open("c", sealed.replace("alice", "admin"))).toBeUndefined();
    expect(fresh().open("c", '{"caller":"admin"}')).toBeUndefined();
    expect(fresh().open("c", "pb1.x.y.z.{}")).toBeUndefined();
    expect(sealAt([NEW_SECRET]).seal.open("c", sealed)).toBeUndefined();
    const future = sealAt([SECRET], 1_000_000 + BUS_MESSAGE_WINDOW_MS + 1).seal.seal("c", "{}");
    expect(fresh().open("c", future)).toBeUndefined();
  });

  it("binds a record to its purpose, with no time limit", () => {
    const { seal, clock } = sealAt([SECRET]);
    const record = seal.sealRecord("p:session:s1", '{"owner":"alice"}');
    clock.now += 24 * 3_600_000;
    expect(seal.openRecord("p:session:s1", record)).toBe('{"owner":"alice"}');
    expect(seal.openRecord("p:session:s1", record)).toBe('{"owner":"alice"}');
    expect(seal.openRecord("p:session:s2", record)).toBeUndefined();
    expect(seal.openRecord("p:session:s1", '{"owner":"admin"}')).toBeUndefined();
    // A bus message is not a record, nor the other way round.
    expect(seal.open("p:session:s1", record)).toBeUndefined();
    expect(seal.openRecord("c", seal.seal("c", "{}"))).toBeUndefined();
  });

  it("rotates: the first secret seals, every secret given opens", () => {
    const old = sealAt([SECRET]).seal;
    const rolling = sealAt([NEW_SECRET, SECRET]).seal;
    const rolled = sealAt([NEW_SECRET]).seal;
    expect(rolling.openRecord("k", old.sealRecord("k", "v"))).toBe("v");
    expect(rolling.open("c", old.seal("c", "m"))).toBe("m");
    expect(rolled.openRecord("k", rolling.sealRecord("k", "v"))).toBe("v");
    expect(rolled.openRecord("k", old.sealRecord("k", "v"))).toBeUndefined();
    expect(Buffer.from(rolling.requestStateKey)).toEqual(Buffer.from(rolled.requestStateKey));
    expect(Buffer.from(old.requestStateKey)).not.toEqual(Buffer.from(rolled.requestStateKey));
    expect(rolled.requestStateKey).toHaveLength(32);
  });

  it("refuses to be made without a secret, or with a short one, never echoing it", () => {
    expect(() => createClusterSeal([])).toThrow(ClusterSecretError);
    expect(() => createClusterSeal([""])).toThrow(/needs cluster\.secret/);
    const short = "s".repeat(MIN_CLUSTER_SECRET_LENGTH - 1);
    expect(() => createClusterSeal([short])).toThrow(/at least 32 characters/);
    expect(() => createClusterSeal([SECRET, short])).toThrow(ClusterSecretError);
    try {
      createClusterSeal([short]);
    } catch (error) {
      expect(String(error)).not.toContain(short);
    }
  });
});

describe("rejections", () => {
  it("count every message dropped and warn at most once per interval", () => {
    const warnings: string[] = [];
    const clock = { now: 0 };
    const rejections = createRejections(
      (message) => warnings.push(message),
      () => clock.now,
    );
    rejections.reject("p:modern:a");
    rejections.reject("p:modern:a");
    rejections.reject("p:session:s1");
    expect(rejections.total).toBe(3);
    expect(warnings).toEqual([
      "dropped 1 Redis message(s) or record(s) that failed verification (last at p:modern:a): written by something without the cluster secret, or a replay",
    ]);
    clock.now += REJECTION_LOG_INTERVAL_MS;
    rejections.reject("p:broadcast");
    expect(warnings[1]).toMatch(/^dropped 3 .*\(last at p:broadcast\)/);
  });
});
