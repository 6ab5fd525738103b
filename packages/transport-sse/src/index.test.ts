import { expect, it } from "vitest";
import * as api from "./index.js";

it("exports exactly the documented runtime names", () => {
  expect(Object.keys(api).sort()).toEqual([
    "FallbackClientTransport",
    "SseClientTransport",
    "SseServerTransport",
    "createSseHandler",
    "createSseServer",
    "createWebSseHandler",
  ]);
});
