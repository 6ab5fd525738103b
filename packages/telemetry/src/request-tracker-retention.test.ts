import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import { trackRequest } from "./request-tracker.js";
import { createTelemetry } from "./telemetry.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

it("an ended call's stored event does not keep its session's catalogue (knownTool) alive", async () => {
  const telemetry = createTelemetry();
  // A session's catalogue, reachable only through the knownTool check of the tracker.
  const held = (() => {
    const catalogue = { names: new Set(["echo"]), padding: new Array(1000).fill("x") };
    const tracker = trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "echo" },
      id: 1,
      knownTool: (name) => catalogue.names.has(name),
    });
    tracker.end({ outcome: "success" });
    return new WeakRef(catalogue);
  })();
  // A WeakRef's target stays alive until the end of the job that made it.
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  expect(held.deref()).toBeUndefined();
  // Meanwhile the store kept the tracker, unbuilt (its events are built from it when read).
  expect(telemetry.query({ event_type: "tool.called" })).toHaveLength(1);
});
