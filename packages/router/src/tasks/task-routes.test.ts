import { describe, expect, it } from "vitest";
import { TaskRoutes } from "./task-routes.js";

function routesAt(limits: Partial<ConstructorParameters<typeof TaskRoutes>[0]> = {}) {
  const clock = { now: 1_000 };
  const routes = new TaskRoutes(
    { maxTasks: 10, maxTasksPerCaller: 5, maxTtlMs: 60_000, ...limits },
    () => clock.now,
  );
  return { routes, clock };
}

describe("TaskRoutes", () => {
  it("hands out 128-bit ids of its own, each mapped to its backend's id", () => {
    const { routes } = routesAt();
    const first = routes.add("alice", "a", "same", 1_000);
    const second = routes.add("alice", "b", "same", 1_000);
    expect(first.taskId).toMatch(/^[0-9a-f]{32}$/);
    expect(first.taskId).not.toBe(second.taskId);
    expect(routes.get("alice", first.taskId)).toMatchObject({
      backend: "a",
      backendTaskId: "same",
    });
    expect(routes.get("alice", second.taskId)).toMatchObject({
      backend: "b",
      backendTaskId: "same",
    });
  });

  it("answers another caller's id exactly like an unknown one", () => {
    const { routes } = routesAt();
    const route = routes.add("alice", "a", "x", 1_000);
    const unknown = "f".repeat(32);
    expect(() => routes.get("bob", route.taskId)).toThrowError(`Unknown task: ${route.taskId}`);
    expect(() => routes.get("alice", unknown)).toThrowError(`Unknown task: ${unknown}`);
  });

  it("keeps a route for its TTL, capped at maxTtlMs (which a missing TTL gets too)", () => {
    const { routes, clock } = routesAt({ maxTtlMs: 5_000 });
    expect(routes.ttlFor(2_000)).toBe(2_000);
    expect(routes.ttlFor(3_600_000)).toBe(5_000);
    expect(routes.ttlFor(null)).toBe(5_000);
    const route = routes.add("alice", "a", "x", routes.ttlFor(2_000));
    clock.now += 1_999;
    expect(routes.get("alice", route.taskId).backend).toBe("a");
    clock.now += 1;
    expect(() => routes.get("alice", route.taskId)).toThrowError("Unknown task");
    expect(routes.size).toBe(0);
  });

  it("refuses past the per-caller and the total limit (-32010), and counts expired routes out", () => {
    const { routes, clock } = routesAt({ maxTasks: 3, maxTasksPerCaller: 2 });
    routes.add("alice", "a", "1", 1_000);
    routes.add("alice", "a", "2", 1_000);
    expect(() => routes.add("alice", "a", "3", 1_000)).toThrowError(/maximum of 2 live tasks/);
    routes.add("bob", "a", "4", 1_000);
    expect(() => routes.add("carol", "a", "5", 1_000)).toThrowError(/maximum of 3 live tasks/);
    clock.now += 1_000;
    expect(routes.add("carol", "a", "6", 1_000).backend).toBe("a");
  });

  it("keeps a status of a task not routed yet for 10 s, for the route's owner only", () => {
    const { routes, clock } = routesAt();
    routes.holdEarlyStatus("a", "x", undefined, { taskId: "x", status: "working" });
    routes.holdEarlyStatus("a", "y", "s1", { taskId: "y", status: "working" });
    routes.holdEarlyStatus("a", "z", undefined, { taskId: "z", status: "working" });
    expect(routes.takeEarlyStatuses("a", "y", "s2")).toEqual([]);
    expect(routes.takeEarlyStatuses("a", "y", "s1")).toEqual([{ taskId: "y", status: "working" }]);
    expect(routes.takeEarlyStatuses("a", "x", "s2")).toEqual([{ taskId: "x", status: "working" }]);
    expect(routes.takeEarlyStatuses("a", "x", "s2")).toEqual([]);
    clock.now += 10_000;
    expect(routes.takeEarlyStatuses("a", "z", "s1")).toEqual([]);
  });
});
