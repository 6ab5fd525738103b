import type { RequestContext } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import type { GatewayConfig } from "../config/gateway-config.js";
import { CallGovernor, RETRY_AFTER_META_KEY, type ToolCall } from "./call-governor.js";
import type { SharedToolLimits } from "./shared-tool-limits.js";

const config = (tools: Record<string, { perMinute?: number; concurrent?: number }>) => () =>
  ({ profiles: {}, backends: [], limits: { tools } }) as unknown as GatewayConfig;

function call(principal = "alice"): ToolCall {
  return {
    who: { principal, session: "s1", profile: undefined },
    tool: "gh__echo",
    arguments: {},
    context: { cancellation: { aborted: false } } as unknown as RequestContext,
    backend: "gh",
    denial: undefined,
    profile: undefined,
  };
}

/** One store of counts, as Redis is for every replica: calls per key, refused past the limit. */
function sharedStore() {
  const taken = new Map<string, number>();
  const created: number[] = [];
  const limits: SharedToolLimits = ({ requestsPerMinute }) => {
    created.push(requestsPerMinute);
    return {
      async take(key) {
        const count = (taken.get(key) ?? 0) + 1;
        taken.set(key, count);
        return count <= requestsPerMinute
          ? { allowed: true }
          : { allowed: false, retryAfterSeconds: 30 };
      },
    };
  };
  return { limits, taken, created };
}

const ok = () => ({ content: [] });

describe("CallGovernor with shared per-minute limits (replicas)", () => {
  it("counts perMinute across every governor sharing the limiter, per principal and tool", async () => {
    const store = sharedStore();
    const tools = config({ "gh__*": { perMinute: 2 } });
    const replicaA = new CallGovernor(tools, () => 0, undefined, store.limits);
    const replicaB = new CallGovernor(tools, () => 0, undefined, store.limits);
    await replicaA.call(call(), ok);
    await replicaB.call(call(), ok);
    let runs = 0;
    const limited = await replicaA.call(call(), () => {
      runs += 1;
      return ok();
    });
    expect(runs).toBe(0);
    expect(limited).toMatchObject({ isError: true, _meta: { [RETRY_AFTER_META_KEY]: 30 } });
    // Another principal has a bucket of its own; the key says the tool and the principal.
    expect(await replicaB.call(call("bob"), ok)).toEqual({ content: [] });
    expect([...store.taken.keys()]).toEqual(["tool alice\u0000gh__echo", "tool bob\u0000gh__echo"]);
    // One shared limiter per limit value, made once per governor.
    expect(store.created).toEqual([2, 2]);
  });

  it("keeps concurrent per governor, and takes nothing shared for a call refused there", async () => {
    const store = sharedStore();
    const tools = config({ "gh__*": { perMinute: 10, concurrent: 1 } });
    const replicaA = new CallGovernor(tools, () => 0, undefined, store.limits);
    const replicaB = new CallGovernor(tools, () => 0, undefined, store.limits);
    let finish = () => {};
    const running = replicaA.call(
      call(),
      () => new Promise((resolve) => (finish = () => resolve(ok()))),
    );
    const refused = await replicaA.call(call(), ok);
    expect(refused).toMatchObject({ isError: true, _meta: { [RETRY_AFTER_META_KEY]: 1 } });
    // The other replica's one call at a time is its own.
    expect(await replicaB.call(call(), ok)).toEqual({ content: [] });
    finish();
    await running;
    expect(store.taken.get("tool alice\u0000gh__echo")).toBe(2);
  });

  it("counts on this governor alone when the shared limiter fails", async () => {
    const failing: SharedToolLimits = () => ({ take: () => Promise.reject(new Error("down")) });
    const governor = new CallGovernor(
      config({ "gh__*": { perMinute: 1 } }),
      () => 0,
      undefined,
      failing,
    );
    expect(await governor.call(call(), ok)).toEqual({ content: [] });
    expect(await governor.call(call(), ok)).toMatchObject({ isError: true });
  });
});
