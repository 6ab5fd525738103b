import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type OpenStream,
  openStream,
  rawRequest,
  startTestSseServer,
  type TestSseServer,
} from "./test-support/sse-fixtures.js";

let server: TestSseServer;
let stream: OpenStream;
let endpoint: string;
beforeAll(async () => {
  server = await startTestSseServer();
  stream = await openStream(server.url);
  endpoint = new URL((await stream.event(0)).data, server.url).href;
});
afterAll(async () => {
  stream.abort();
  await server.close();
});

it("answers any POSTed body with 202 or 4xx, never 5xx, and the session keeps serving", async () => {
  const body = fc.oneof(
    fc.string(),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.array(fc.jsonValue(), { maxLength: 4 }).map((value) => JSON.stringify(value)),
  );
  await fc.assert(
    fc.asyncProperty(body, async (text) => {
      const answer = await rawRequest(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: text,
      });
      expect(answer.status, `${answer.status} for ${text}`).toBeLessThan(500);
    }),
    { numRuns: 150 },
  );
  const last = await rawRequest(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: "last", method: "ping" }),
  });
  expect(last.status).toBe(202);
  expect(server.server.handler.sessionCount).toBe(1);
});
