import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, sampleEntry, startTestProxy, type TestProxy } from "./proxy-helpers.js";

const TOKEN = "plain-token-0123456789abcdef";
const auth = { authorization: `Bearer ${TOKEN}` };

let proxy: TestProxy;
beforeAll(async () => {
  proxy = await startTestProxy({
    mcpServers: { sample: sampleEntry() },
    auth: { tokens: [{ name: "curl", token: TOKEN }] },
    limits: { maxBatchSize: 3 },
  });
});
afterAll(() => proxy.stop());

describe("plain JSON-RPC over HTTP (no session, no initialize)", () => {
  it("answers a request with Accept missing or only application/json with plain JSON", async () => {
    for (const accept of [undefined, "application/json", "*/*"]) {
      const answer = await postJson(
        proxy.url,
        {
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "sample__add", arguments: { a: 2, b: 3 } },
        },
        accept === undefined ? auth : { ...auth, accept },
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect(answer.headers.get("mcp-session-id")).toBeNull();
      expect(answer.body).toMatchObject({
        jsonrpc: "2.0",
        id: 7,
        result: { structuredContent: { sum: 5 } },
      });
    }
  });

  it("answers a batch with an array in order, errors with HTTP 200", async () => {
    const answer = await postJson(
      proxy.url,
      [
        { jsonrpc: "2.0", id: "a", method: "tools/list" },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "zz" } },
        { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "sample__nope" } },
      ],
      auth,
    );
    expect(answer.status).toBe(200);
    const [list, failed, ...rest] = answer.body as {
      id: unknown;
      result?: { tools: unknown[] };
      error?: { code: number };
    }[];
    expect(rest).toEqual([]);
    expect(list?.id).toBe("a");
    expect(list?.result?.tools.length).toBeGreaterThan(0);
    expect(failed).toMatchObject({ id: "b", error: { code: -32602 } });
  });

  it("refuses a batch over maxBatchSize and an empty one with one -32600", async () => {
    const request = { jsonrpc: "2.0", id: 1, method: "ping" };
    const tooMany = await postJson(proxy.url, [request, request, request, request], auth);
    expect(tooMany.body).toMatchObject({
      error: {
        code: -32600,
        message: "a batch of 4 requests exceeds the limit of 3 (limits.maxBatchSize)",
      },
    });
    const empty = await postJson(proxy.url, [], auth);
    expect(empty.body).toMatchObject({ error: { code: -32600 } });
    const notJson = await postJson(proxy.url, "{oops", auth);
    expect([notJson.status, (notJson.body as { error: { code: number } }).error.code]).toEqual([
      200, -32700,
    ]);
  });

  it("keeps concurrent bodies with the same id apart", async () => {
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        postJson(
          proxy.url,
          {
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "sample__add", arguments: { a: n, b: 0 } },
          },
          auth,
        ),
      ),
    );
    expect(
      answers.map(
        (answer) =>
          (answer.body as { result: { structuredContent: { sum: number } } }).result
            .structuredContent.sum,
      ),
    ).toEqual([1, 2, 3, 4, 5]);
  });

  it("tags a backend's error with data.server and data.originalError", async () => {
    const answer = await postJson(
      proxy.url,
      {
        jsonrpc: "2.0",
        id: 3,
        method: "prompts/get",
        params: { name: "sample__test_prompt_with_arguments", arguments: {} },
      },
      auth,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: 3,
      error: {
        code: -32602,
        data: { server: "sample", backend: "sample", originalError: { code: -32602 } },
      },
    });
  });

  it("answers a body of notifications only with 202, and missing auth with 401 and a JSON-RPC error", async () => {
    const notification = await postJson(
      proxy.url,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      auth,
    );
    expect(notification.status).toBe(202);
    const missing = await postJson(proxy.url, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32014 } });
  });
});
