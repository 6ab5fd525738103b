import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  initializeRequest,
  openSession,
  post,
  startTestServer,
  type TestServer,
} from "./test-support/http-fixtures.js";

let server: TestServer;
let sessionId: string;
beforeAll(async () => {
  server = await startTestServer({ responseMode: "json" });
  sessionId = await openSession(server.url);
});
afterAll(async () => {
  await server.close();
});

const headers = () => ({ "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" });

it("answers any body with a 2xx or 4xx, never a 5xx, and keeps serving", async () => {
  const body = fc.oneof(
    fc.string(),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc
      .record({
        jsonrpc: fc.constantFrom("2.0", "1.0"),
        id: fc.jsonValue(),
        method: fc.jsonValue(),
      })
      .map((value) => JSON.stringify(value)),
    fc.array(fc.jsonValue(), { maxLength: 4 }).map((value) => JSON.stringify(value)),
  );
  await fc.assert(
    fc.asyncProperty(body, async (text) => {
      const answer = await post(server.url, text, headers());
      expect(answer.status, `${answer.status} for ${text}: ${answer.text}`).toBeLessThan(500);
    }),
    { numRuns: 150 },
  );
  const healthy = await post(
    server.url,
    { jsonrpc: "2.0", id: "still", method: "ping" },
    headers(),
  );
  expect(JSON.parse(healthy.text)).toEqual({
    jsonrpc: "2.0",
    id: "still",
    result: { echo: "ping" },
  });
  expect((await post(server.url, initializeRequest(1))).status).toBe(200);
});
