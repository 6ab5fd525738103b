import { expect, it } from "vitest";
import * as client from "./client.js";
import * as root from "./index.js";

it("exports the client transports from the client entry, the same values as the root", () => {
  expect(Object.keys(client).sort()).toEqual(["FallbackClientTransport", "SseClientTransport"]);
  expect(client.SseClientTransport).toBe(root.SseClientTransport);
  expect(client.FallbackClientTransport).toBe(root.FallbackClientTransport);
});
