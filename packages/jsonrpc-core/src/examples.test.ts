import { expect, it, vi } from "vitest";
import { main } from "../examples/connection-over-memory.js";

it("the README example runs and prints what it says", async () => {
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  await main();
  expect(log.mock.calls).toEqual([[5], [-32601]]);
});

it("the README SDK example runs in both directions", async () => {
  const { sdkOverPatchbay, patchbayOverSdk } = await import("../examples/sdk-interop.js");
  expect(await sdkOverPatchbay()).toEqual(["hello"]);
  expect(await patchbayOverSdk()).toMatchObject({ serverInfo: { name: "demo" } });
});
