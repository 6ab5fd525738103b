import { expect, it } from "vitest";
import { main } from "../examples/aggregate-two-servers.js";

it("runs the README example", async () => {
  expect(await main()).toEqual([
    "gateway_status",
    "get_events",
    "github__create_issue",
    "memo__create_issue",
  ]);
});
