import { describe, expect, it } from "vitest";
import { validateMessage } from "./validate-message.js";

function issuesOf(result: ReturnType<typeof validateMessage>) {
  if (result.success) throw new Error("expected the message to be refused");
  return result;
}

describe("malformed messages are refused with the path of the problem", () => {
  it("a tools/call without a name", () => {
    const result = issuesOf(
      validateMessage("2025-11-25", {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { arguments: {} },
      }),
    );
    expect(result.issues).toEqual([
      { path: ["params", "name"], message: "Invalid input: expected string, received undefined" },
    ]);
    expect(result.message).toBe("params.name: Invalid input: expected string, received undefined");
  });

  it("tools/call arguments that are not an object", () => {
    const result = issuesOf(
      validateMessage("2025-06-18", {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "x", arguments: ["a"] },
      }),
    );
    expect(result.issues[0]?.path).toEqual(["params", "arguments"]);
  });

  it("a text block without text deep inside a tools/call result", () => {
    const result = issuesOf(
      validateMessage(
        "2025-11-25",
        {
          jsonrpc: "2.0",
          id: 1,
          result: { content: [{ type: "text", text: "ok" }, { type: "text" }] },
        },
        { requestMethod: "tools/call" },
      ),
    );
    expect(result.message).toBe(
      "result.content[1].text: Invalid input: expected string, received undefined",
    );
  });

  it("an image without a mimeType", () => {
    const result = issuesOf(
      validateMessage(
        "2024-11-05",
        { jsonrpc: "2.0", id: 1, result: { content: [{ type: "image", data: "AA==" }] } },
        { requestMethod: "tools/call" },
      ),
    );
    expect(result.issues[0]?.path).toEqual(["result", "content", 0, "mimeType"]);
  });

  it("an embedded resource with neither text nor blob", () => {
    const result = issuesOf(
      validateMessage(
        "2025-03-26",
        {
          jsonrpc: "2.0",
          id: 1,
          result: { content: [{ type: "resource", resource: { uri: "file:///a" } }] },
        },
        { requestMethod: "tools/call" },
      ),
    );
    expect(result.issues[0]?.path.slice(0, 4)).toEqual(["result", "content", 0, "resource"]);
  });

  it("a tool whose inputSchema is not of type object", () => {
    const result = issuesOf(
      validateMessage(
        "2025-11-25",
        {
          jsonrpc: "2.0",
          id: 1,
          result: { tools: [{ name: "t", inputSchema: { type: "string" } }] },
        },
        { requestMethod: "tools/list" },
      ),
    );
    expect(result.issues[0]?.path).toEqual(["result", "tools", 0, "inputSchema", "type"]);
  });

  it("a prompt argument value that is not a string", () => {
    const result = issuesOf(
      validateMessage("2025-11-25", {
        jsonrpc: "2.0",
        id: 1,
        method: "prompts/get",
        params: { name: "p", arguments: { count: 3 } },
      }),
    );
    expect(result.issues[0]?.path).toEqual(["params", "arguments", "count"]);
  });

  it("a resource template without uriTemplate", () => {
    const result = issuesOf(
      validateMessage(
        "2025-06-18",
        { jsonrpc: "2.0", id: 1, result: { resourceTemplates: [{ name: "files" }] } },
        { requestMethod: "resources/templates/list" },
      ),
    );
    expect(result.issues[0]?.path).toEqual(["result", "resourceTemplates", 0, "uriTemplate"]);
  });

  it("an initialize without clientInfo.version", () => {
    const result = issuesOf(
      validateMessage("2025-11-25", {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c" } },
      }),
    );
    expect(result.issues[0]?.path).toEqual(["params", "clientInfo", "version"]);
  });

  it("progress without a token", () => {
    const result = issuesOf(
      validateMessage("2025-03-26", {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progress: 1 },
      }),
    );
    expect(result.issues[0]?.path).toEqual(["params", "progressToken"]);
  });

  it("an unknown log level", () => {
    const result = issuesOf(
      validateMessage("2025-11-25", {
        jsonrpc: "2.0",
        id: 1,
        method: "logging/setLevel",
        params: { level: "verbose" },
      }),
    );
    expect(result.issues[0]?.path).toEqual(["params", "level"]);
  });

  it("a completion with more than 100 values", () => {
    const values = Array.from({ length: 101 }, (_, index) => `v${index}`);
    const result = issuesOf(
      validateMessage(
        "2025-11-25",
        { jsonrpc: "2.0", id: 1, result: { completion: { values } } },
        { requestMethod: "completion/complete" },
      ),
    );
    expect(result.issues[0]?.path).toEqual(["result", "completion", "values"]);
  });

  it("an error response whose code is not an integer", () => {
    const result = issuesOf(
      validateMessage("2025-11-25", {
        jsonrpc: "2.0",
        id: 1,
        error: { code: "oops", message: "x" },
      }),
    );
    expect(result.issues[0]?.path).toEqual(["error", "code"]);
  });

  it("a request id that is null, and a wrong jsonrpc version", () => {
    expect(
      issuesOf(validateMessage("2025-11-25", { jsonrpc: "2.0", id: null, method: "ping" }))
        .issues[0]?.path,
    ).toEqual(["id"]);
    expect(
      issuesOf(validateMessage("2025-11-25", { jsonrpc: "1.0", id: 1, method: "ping" })).issues[0]
        ?.path,
    ).toEqual(["jsonrpc"]);
  });

  it("a request sent as a notification", () => {
    const result = issuesOf(
      validateMessage("2025-11-25", { jsonrpc: "2.0", method: "tools/list" }),
    );
    expect(result.message).toContain('"tools/list" is not a notification of revision 2025-11-25');
  });

  it("one bad element of a batch, with its index in the path", () => {
    const result = issuesOf(
      validateMessage("2025-03-26", [
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: {} },
      ]),
    );
    expect(result.issues[0]?.path).toEqual([1, "params", "name"]);
  });
});

describe("leniency", () => {
  it("keeps unknown fields everywhere", () => {
    const message = {
      jsonrpc: "2.0",
      id: 1,
      result: {
        tools: [
          {
            name: "t",
            inputSchema: { type: "object", "x-vendor": 1 },
            vendorField: { deep: true },
          },
        ],
        futureField: [1, 2],
        _meta: { "com.example/trace": "abc" },
      },
      extension: "kept",
    };
    const result = validateMessage("2024-11-05", message, { requestMethod: "tools/list" });
    expect(result.success).toBe(true);
    if (result.success) expect(result.data).toEqual(message);
  });

  it("accepts unknown methods only when asked", () => {
    const message = { jsonrpc: "2.0", id: 1, method: "vendor/custom", params: { a: 1 } };
    expect(validateMessage("2025-11-25", message).success).toBe(false);
    expect(validateMessage("2025-11-25", message, { allowUnknownMethods: true }).success).toBe(
      true,
    );
  });

  it("looks up the request method of a response by id", () => {
    const methods = new Map<unknown, string>([[7, "tools/call"]]);
    const result = validateMessage(
      "2025-11-25",
      { jsonrpc: "2.0", id: 7, result: { content: "not an array" } },
      { requestMethod: (id) => methods.get(id) },
    );
    expect(result.success).toBe(false);
  });

  it("checks only the envelope of a response whose method is unknown", () => {
    expect(
      validateMessage("2025-11-25", { jsonrpc: "2.0", id: 7, result: { anything: 1 } }).success,
    ).toBe(true);
  });
});

describe("shallow validation", () => {
  it("checks top-level required keys but not nested content", () => {
    const deepBad = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text" }] } };
    expect(
      validateMessage("2025-11-25", deepBad, { requestMethod: "tools/call", depth: "shallow" })
        .success,
    ).toBe(true);
    const missing = validateMessage(
      "2025-11-25",
      { jsonrpc: "2.0", id: 1, result: { isError: true } },
      { requestMethod: "tools/call", depth: "shallow" },
    );
    expect(missing.success).toBe(false);
    if (!missing.success)
      expect(missing.issues).toEqual([{ path: ["result", "content"], message: "Required" }]);
  });

  it("returns the very same params object (no copy)", () => {
    const params = { name: "t", arguments: { big: "x".repeat(1000) } };
    const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params };
    const result = validateMessage("2025-11-25", message, { depth: "shallow" });
    expect(result.success).toBe(true);
    if (result.success) {
      expect(result.data).toBe(message);
      expect((result.data as { params: unknown }).params).toBe(params);
    }
  });
});

describe("results that may take another shape", () => {
  it("point at the real problem inside a modern tools/call result (not at the union)", () => {
    const result = validateMessage(
      "2026-07-28",
      { jsonrpc: "2.0", id: 1, result: { resultType: "complete", content: [{ type: "text" }] } },
      { requestMethod: "tools/call" },
    );
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.message).toBe(
        "result.content[0].text: Invalid input: expected string, received undefined",
      );
    }
  });

  it("point at the missing content of a modern complete result", () => {
    const result = validateMessage(
      "2026-07-28",
      { jsonrpc: "2.0", id: 1, result: { resultType: "complete" } },
      { requestMethod: "tools/call" },
    );
    if (result.success) expect.fail("should be refused");
    expect(result.issues[0]?.path).toEqual(["result", "content"]);
  });

  it("point at the form field of an elicitation that is neither URL nor a valid form", () => {
    const result = validateMessage("2025-11-25", {
      jsonrpc: "2.0",
      id: 1,
      method: "elicitation/create",
      params: {
        message: "m",
        requestedSchema: { type: "object", properties: { a: { type: "object" } } },
      },
    });
    if (result.success) expect.fail("should be refused");
    expect(result.issues[0]?.path.slice(0, 5)).toEqual([
      "params",
      "requestedSchema",
      "properties",
      "a",
      "type",
    ]);
  });

  it("accept a CreateTaskResult for a task-augmented tools/call in 2025-11-25 only", () => {
    const message = {
      jsonrpc: "2.0",
      id: 1,
      result: {
        task: { taskId: "t", status: "working", createdAt: "x", lastUpdatedAt: "x", ttl: null },
      },
    };
    expect(validateMessage("2025-11-25", message, { requestMethod: "tools/call" }).success).toBe(
      true,
    );
    expect(validateMessage("2025-06-18", message, { requestMethod: "tools/call" }).success).toBe(
      false,
    );
  });

  it("check shallowly that a result satisfies one of its shapes", () => {
    const inputRequired = {
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "input_required", requestState: "s" },
    };
    expect(
      validateMessage("2026-07-28", inputRequired, {
        requestMethod: "tools/call",
        depth: "shallow",
      }).success,
    ).toBe(true);
    const neither = validateMessage(
      "2026-07-28",
      { jsonrpc: "2.0", id: 1, result: {} },
      { requestMethod: "tools/call", depth: "shallow" },
    );
    expect(neither.success).toBe(false);
  });
});

describe("sampling tool results", () => {
  it("refuse a user message mixing tool_result with other content (2025-11-25 MUST)", () => {
    const result = validateMessage("2025-11-25", {
      jsonrpc: "2.0",
      id: 1,
      method: "sampling/createMessage",
      params: {
        maxTokens: 10,
        messages: [
          {
            role: "user",
            content: [
              { type: "tool_result", toolUseId: "u1", content: [] },
              { type: "text", text: "and also this" },
            ],
          },
        ],
      },
    });
    if (result.success) expect.fail("should be refused");
    expect(result.issues[0]).toEqual({
      path: ["params", "messages", 0, "content"],
      message: "A message with tool_result content must contain only tool results",
    });
  });
});
