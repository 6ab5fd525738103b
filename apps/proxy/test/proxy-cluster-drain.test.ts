import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProxyReplica, startTestCluster, type TestCluster } from "./cluster-harness.js";
import { connectSdk, sampleEntry } from "./proxy-helpers.js";

// Three replicas on one Redis behind a round-robin balancer; one of them is stopped with SIGTERM.
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster({
    mcpServers: { sample: sampleEntry() },
    limits: { requestsPerMinute: 100_000 },
  });
}, 60_000);
afterAll(() => cluster?.stop(), 30_000);

describe("a replica stopped with SIGTERM", () => {
  it("finishes its calls, and its clients' GET streams resume on the others", async () => {
    const firstGet = cluster.balancer.next((hop) => hop.method === "GET");
    const { client } = await connectSdk(cluster.balancer.url, { name: "drained" });
    let changes = 0;
    let onChange: () => void = () => {};
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changes += 1;
      onChange();
    });
    // The SDK opens its GET stream once initialized; wait for it, then stop the replica it is on.
    const holder = cluster.replicas[(await firstGet).target] as ProxyReplica;
    const holderIndex = cluster.replicas.indexOf(holder);
    // The SDK reconnects its GET stream (with Last-Event-ID) to a replica left.
    const reconnected = cluster.balancer.next(
      (hop) => hop.method === "GET" && hop.target !== holderIndex,
    );
    const running = client.callTool(
      { name: "sample__long_task", arguments: { steps: 3, stepMs: 100 } },
      undefined,
      { onprogress: () => {} },
    );
    process.kill(holder.child.pid as number, "SIGTERM");
    // Whichever replica runs it, the call is answered: a stopping replica drains before it exits.
    expect((await running).content).toEqual([{ type: "text", text: "Completed 3 steps" }]);
    expect(await holder.exited).toEqual([0, null]);
    await reconnected;
    const changed = new Promise<void>((resolve) => {
      onChange = resolve;
    });
    // A backend's list_changed reaches the client on its resumed GET stream.
    await client.callTool({ name: "sample__toggle_extra_tool", arguments: {} });
    await changed;
    expect(changes).toBeGreaterThanOrEqual(1);
    await client.close();
  }, 30_000);
});
