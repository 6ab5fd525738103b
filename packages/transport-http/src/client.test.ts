import { expect, it } from "vitest";
import * as client from "./client.js";
import * as root from "./index.js";

it("exports exactly the documented runtime names from the client entry", () => {
  expect(Object.keys(client).sort()).toEqual([
    "DEFAULT_MAX_EVENT_BYTES",
    "DEFAULT_MAX_RESPONSE_BODY_BYTES",
    "HttpStatusError",
    "LAST_EVENT_ID_HEADER",
    "MCP_PROTOCOL_VERSION_HEADER",
    "MCP_SESSION_ID_HEADER",
    "ResponseTooLargeError",
    "SessionExpiredError",
    "StreamableHttpClientTransport",
    "createSseParser",
    "limitSseEvents",
    "noRedirects",
    "readSseBody",
    "readTextLimited",
    "systemClock",
  ]);
});

it("exports the same values from the root entry", () => {
  const rootValues = new Map<string, unknown>(Object.entries(root));
  for (const [name, value] of Object.entries(client))
    expect(rootValues.get(name), name).toBe(value);
});
