import type { ProtocolVersion } from "../src/versions.js";

/** A message and the context needed to validate it. */
export interface Fixture {
  /** What the message is, as a test name. */
  readonly name: string;
  /** The revisions the message is valid in. */
  readonly revisions: readonly ProtocolVersion[];
  /** The JSON-RPC message (or batch). */
  readonly message: unknown;
  /** For a result response: the method of the request it answers. */
  readonly requestMethod?: string;
}

export const LEGACY: readonly ProtocolVersion[] = [
  "2024-11-05",
  "2025-03-26",
  "2025-06-18",
  "2025-11-25",
];
export const FROM_2025_03_26: readonly ProtocolVersion[] = [
  "2025-03-26",
  "2025-06-18",
  "2025-11-25",
];
export const FROM_2025_06_18: readonly ProtocolVersion[] = ["2025-06-18", "2025-11-25"];
export const MODERN: readonly ProtocolVersion[] = ["2026-07-28"];

/** The `_meta` every modern request carries. */
export const modernMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "claude-desktop", version: "1.2.0" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};

/** Typical legacy messages a gateway sees, from the digest and from real clients. */
export const legacyFixtures: readonly Fixture[] = [
  {
    name: "initialize from a 2024-11-05 client",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2024-11-05",
        capabilities: { roots: { listChanged: true }, sampling: {} },
        clientInfo: { name: "claude-ai", version: "0.1.0" },
      },
    },
  },
  {
    name: "initialize result of server-everything (2025-11-25)",
    revisions: ["2025-11-25"],
    requestMethod: "initialize",
    message: {
      jsonrpc: "2.0",
      id: 0,
      result: {
        protocolVersion: "2025-11-25",
        capabilities: {
          prompts: {},
          resources: { subscribe: true },
          tools: { listChanged: true },
          logging: {},
          completions: {},
          tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
        },
        serverInfo: {
          name: "mcp-servers/everything",
          title: "Everything Reference Server",
          version: "2.0.0",
          icons: [
            { src: "data:image/png;base64,iVBORw0KGgo=", mimeType: "image/png", sizes: ["48x48"] },
          ],
          websiteUrl: "https://github.com/modelcontextprotocol/servers",
        },
        instructions: "Testing and demonstration server for MCP protocol features.",
      },
    },
  },
  {
    name: "notifications/initialized",
    revisions: LEGACY,
    message: { jsonrpc: "2.0", method: "notifications/initialized" },
  },
  { name: "ping with id 0", revisions: LEGACY, message: { jsonrpc: "2.0", id: 0, method: "ping" } },
  {
    name: "ping result",
    revisions: LEGACY,
    requestMethod: "ping",
    message: { jsonrpc: "2.0", id: "", result: {} },
  },
  {
    name: "tools/list with a cursor",
    revisions: LEGACY,
    message: { jsonrpc: "2.0", id: 2, method: "tools/list", params: { cursor: "page-2" } },
  },
  {
    name: "tools/list result with namespaced names",
    revisions: LEGACY,
    requestMethod: "tools/list",
    message: {
      jsonrpc: "2.0",
      id: 2,
      result: {
        tools: [
          {
            name: "github__create_issue",
            description: "Create an issue",
            inputSchema: {
              type: "object",
              properties: { title: { type: "string" }, body: { type: "string" } },
              required: ["title"],
            },
          },
          {
            name: "filesystem.read_file",
            inputSchema: { type: "object", additionalProperties: false },
          },
          { name: "gateway_status", inputSchema: { type: "object" } },
        ],
        nextCursor: "page-3",
      },
    },
  },
  {
    name: "tools/call with arguments and a progress token",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      id: "call-1",
      method: "tools/call",
      params: {
        name: "github__create_issue",
        arguments: { title: "Bug", labels: ["p1"] },
        _meta: {
          progressToken: "tok-1",
          traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        },
      },
    },
  },
  {
    name: "tools/call result with text, image and embedded resource",
    revisions: LEGACY,
    requestMethod: "tools/call",
    message: {
      jsonrpc: "2.0",
      id: "call-1",
      result: {
        content: [
          { type: "text", text: "Created issue #42" },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
          {
            type: "resource",
            resource: { uri: "file:///tmp/a.txt", mimeType: "text/plain", text: "hello" },
          },
          { type: "resource", resource: { uri: "file:///tmp/b.bin", blob: "AAEC" } },
        ],
      },
    },
  },
  {
    name: "tools/call result that failed as a tool (isError)",
    revisions: LEGACY,
    requestMethod: "tools/call",
    message: {
      jsonrpc: "2.0",
      id: 3,
      result: { content: [{ type: "text", text: "Invalid title" }], isError: true },
    },
  },
  {
    name: "tools/call result with audio, a resource link and structured content",
    revisions: FROM_2025_06_18,
    requestMethod: "tools/call",
    message: {
      jsonrpc: "2.0",
      id: 4,
      result: {
        content: [
          { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
          {
            type: "resource_link",
            uri: "file:///repo/README.md",
            name: "README.md",
            mimeType: "text/markdown",
          },
          {
            type: "text",
            text: '{"temperature":22}',
            annotations: {
              audience: ["user"],
              priority: 0.5,
              lastModified: "2025-01-12T15:00:58Z",
            },
          },
        ],
        structuredContent: { temperature: 22 },
      },
    },
  },
  {
    name: "resources/list result",
    revisions: LEGACY,
    requestMethod: "resources/list",
    message: {
      jsonrpc: "2.0",
      id: 5,
      result: {
        resources: [
          {
            uri: "file:///project/src/main.rs",
            name: "main.rs",
            description: "Primary entry point",
            mimeType: "text/x-rust",
          },
        ],
      },
    },
  },
  {
    name: "resources/templates/list result",
    revisions: LEGACY,
    requestMethod: "resources/templates/list",
    message: {
      jsonrpc: "2.0",
      id: 6,
      result: {
        resourceTemplates: [
          {
            uriTemplate: "file:///{path}",
            name: "Project Files",
            mimeType: "application/octet-stream",
          },
        ],
      },
    },
  },
  {
    name: "resources/read",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      id: 7,
      method: "resources/read",
      params: { uri: "file:///project/src/main.rs" },
    },
  },
  {
    name: "resources/read result",
    revisions: LEGACY,
    requestMethod: "resources/read",
    message: {
      jsonrpc: "2.0",
      id: 7,
      result: {
        contents: [
          { uri: "file:///project/src/main.rs", mimeType: "text/x-rust", text: "fn main() {}" },
        ],
      },
    },
  },
  {
    name: "resources/subscribe",
    revisions: LEGACY,
    message: { jsonrpc: "2.0", id: 8, method: "resources/subscribe", params: { uri: "file:///a" } },
  },
  {
    name: "notifications/resources/updated",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "file:///a" },
    },
  },
  {
    name: "prompts/get with arguments",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      id: 9,
      method: "prompts/get",
      params: {
        name: "github__code_review",
        arguments: { code: "def hello():\n    print('world')" },
      },
    },
  },
  {
    name: "prompts/list result with arguments",
    revisions: LEGACY,
    requestMethod: "prompts/list",
    message: {
      jsonrpc: "2.0",
      id: 10,
      result: {
        prompts: [
          {
            name: "code_review",
            description: "Asks the LLM to analyze code quality",
            arguments: [{ name: "code", description: "The code to review", required: true }],
          },
        ],
      },
    },
  },
  {
    name: "prompts/get result",
    revisions: LEGACY,
    requestMethod: "prompts/get",
    message: {
      jsonrpc: "2.0",
      id: 9,
      result: {
        description: "Code review prompt",
        messages: [
          { role: "user", content: { type: "text", text: "Please review this Python code" } },
          {
            role: "assistant",
            content: { type: "resource", resource: { uri: "file:///x.py", text: "print(1)" } },
          },
        ],
      },
    },
  },
  {
    name: "completion/complete",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      id: 11,
      method: "completion/complete",
      params: {
        ref: { type: "ref/prompt", name: "code_review" },
        argument: { name: "language", value: "py" },
      },
    },
  },
  {
    name: "completion/complete result",
    revisions: LEGACY,
    requestMethod: "completion/complete",
    message: {
      jsonrpc: "2.0",
      id: 11,
      result: { completion: { values: ["python", "pytorch"], total: 10, hasMore: true } },
    },
  },
  {
    name: "logging/setLevel",
    revisions: LEGACY,
    message: { jsonrpc: "2.0", id: 12, method: "logging/setLevel", params: { level: "warning" } },
  },
  {
    name: "notifications/message",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "error", logger: "database", data: { error: "Connection failed" } },
    },
  },
  {
    name: "notifications/progress",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "tok-1", progress: 50, total: 100 },
    },
  },
  {
    name: "notifications/progress with a message",
    revisions: FROM_2025_03_26,
    message: {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 7, progress: 0.5, message: "Reticulating splines" },
    },
  },
  {
    name: "notifications/cancelled",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "call-1", reason: "User requested cancellation" },
    },
  },
  {
    name: "sampling/createMessage",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      id: 13,
      method: "sampling/createMessage",
      params: {
        messages: [
          { role: "user", content: { type: "text", text: "What is the capital of France?" } },
        ],
        modelPreferences: {
          hints: [{ name: "claude-3-sonnet" }],
          intelligencePriority: 0.8,
          speedPriority: 0.5,
        },
        systemPrompt: "You are a helpful assistant.",
        maxTokens: 100,
      },
    },
  },
  {
    name: "sampling/createMessage result",
    revisions: LEGACY,
    requestMethod: "sampling/createMessage",
    message: {
      jsonrpc: "2.0",
      id: 13,
      result: {
        role: "assistant",
        content: { type: "text", text: "Paris." },
        model: "claude-3-sonnet-20240307",
        stopReason: "endTurn",
      },
    },
  },
  {
    name: "roots/list result",
    revisions: LEGACY,
    requestMethod: "roots/list",
    message: {
      jsonrpc: "2.0",
      id: 14,
      result: { roots: [{ uri: "file:///home/user/projects/myproject", name: "My Project" }] },
    },
  },
  {
    name: "elicitation/create (form)",
    revisions: FROM_2025_06_18,
    message: {
      jsonrpc: "2.0",
      id: 15,
      method: "elicitation/create",
      params: {
        message: "Please provide your GitHub username",
        requestedSchema: {
          type: "object",
          properties: { name: { type: "string" } },
          required: ["name"],
        },
      },
    },
  },
  {
    name: "elicitation/create result",
    revisions: FROM_2025_06_18,
    requestMethod: "elicitation/create",
    message: { jsonrpc: "2.0", id: 15, result: { action: "accept", content: { name: "octocat" } } },
  },
  {
    name: "error: method not found (server-everything answering server/discover)",
    revisions: [...LEGACY, ...MODERN],
    message: { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } },
  },
  {
    name: "error: unsupported version from the SDK's HTTP transport, no id",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32000,
        message:
          "Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)",
      },
    },
  },
  {
    name: "error: resource not found (-32002) with data",
    revisions: LEGACY,
    message: {
      jsonrpc: "2.0",
      id: 5,
      error: {
        code: -32002,
        message: "Resource not found",
        data: { uri: "file:///nonexistent.txt" },
      },
    },
  },
  {
    name: "a batch of a request and a notification (2025-03-26)",
    revisions: ["2025-03-26"],
    message: [
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 1, progress: 1 },
      },
    ],
  },
  {
    name: "tasks/get result (2025-11-25)",
    revisions: ["2025-11-25"],
    requestMethod: "tasks/get",
    message: {
      jsonrpc: "2.0",
      id: 16,
      result: {
        taskId: "t1",
        status: "working",
        createdAt: "2025-11-25T10:30:00Z",
        lastUpdatedAt: "2025-11-25T10:30:00Z",
        ttl: 60000,
        pollInterval: 5000,
      },
    },
  },
  {
    name: "URL-mode elicitation (2025-11-25)",
    revisions: ["2025-11-25"],
    message: {
      jsonrpc: "2.0",
      id: 17,
      method: "elicitation/create",
      params: {
        mode: "url",
        message: "Authorize access",
        url: "https://example.com/oauth",
        elicitationId: "e-1",
      },
    },
  },
];

/** Typical modern (2026-07-28) messages, from the schema's examples. */
export const modernFixtures: readonly Fixture[] = [
  {
    name: "server/discover",
    revisions: MODERN,
    message: { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: modernMeta } },
  },
  {
    name: "server/discover result",
    revisions: MODERN,
    requestMethod: "server/discover",
    message: {
      jsonrpc: "2.0",
      id: 1,
      result: {
        resultType: "complete",
        supportedVersions: ["2026-07-28"],
        capabilities: {
          tools: { listChanged: true },
          extensions: { "io.modelcontextprotocol/tasks": {} },
        },
        instructions: "Use the weather tools.",
        ttlMs: 3600000,
        cacheScope: "public",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "weather", version: "1.0.0" } },
      },
    },
  },
  {
    name: "tools/list",
    revisions: MODERN,
    message: {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: { cursor: "c1", _meta: modernMeta },
    },
  },
  {
    name: "tools/list result with ttl",
    revisions: MODERN,
    requestMethod: "tools/list",
    message: {
      jsonrpc: "2.0",
      id: 2,
      result: {
        resultType: "complete",
        tools: [
          {
            name: "get_weather",
            title: "Weather Information Provider",
            inputSchema: {
              $schema: "https://json-schema.org/draft/2020-12/schema",
              type: "object",
              properties: { location: { type: "string", "x-mcp-header": "Region" } },
              required: ["location"],
            },
            outputSchema: { type: "array", items: { type: "number" } },
          },
        ],
        ttlMs: 60000,
        cacheScope: "private",
      },
    },
  },
  {
    name: "tools/call",
    revisions: MODERN,
    message: {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: {
        name: "get_weather",
        arguments: { location: "New York" },
        _meta: { ...modernMeta, progressToken: "p1" },
      },
    },
  },
  {
    name: "tools/call result with structured content that is an array",
    revisions: MODERN,
    requestMethod: "tools/call",
    message: {
      jsonrpc: "2.0",
      id: 3,
      result: {
        resultType: "complete",
        content: [{ type: "text", text: "[22.5, 23.1]" }],
        structuredContent: [22.5, 23.1],
      },
    },
  },
  {
    name: "tools/call input_required with elicitation and sampling",
    revisions: MODERN,
    requestMethod: "tools/call",
    message: {
      jsonrpc: "2.0",
      id: 3,
      result: {
        resultType: "input_required",
        inputRequests: {
          github_login: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: "Please provide your GitHub username",
              requestedSchema: {
                type: "object",
                properties: { name: { type: "string" } },
                required: ["name"],
              },
            },
          },
          capital_of_france: {
            method: "sampling/createMessage",
            params: {
              messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }],
              maxTokens: 100,
            },
          },
        },
        requestState: "opaque-state",
      },
    },
  },
  {
    name: "tools/call retry with inputResponses",
    revisions: MODERN,
    message: {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: {
        name: "get_weather",
        arguments: { location: "New York" },
        inputResponses: {
          github_login: { action: "accept", content: { name: "octocat" } },
          capital_of_france: {
            role: "assistant",
            content: { type: "text", text: "Paris" },
            model: "m",
          },
        },
        requestState: "opaque-state",
        _meta: modernMeta,
      },
    },
  },
  {
    name: "subscriptions/listen",
    revisions: MODERN,
    message: {
      jsonrpc: "2.0",
      id: "listen:1",
      method: "subscriptions/listen",
      params: {
        notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///a"] },
        _meta: modernMeta,
      },
    },
  },
  {
    name: "notifications/subscriptions/acknowledged",
    revisions: MODERN,
    message: {
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: {
        notifications: { toolsListChanged: true },
        _meta: { "io.modelcontextprotocol/subscriptionId": "listen:1" },
      },
    },
  },
  {
    name: "notifications/tools/list_changed on a listen stream",
    revisions: MODERN,
    message: {
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": "listen:1" } },
    },
  },
  {
    name: "subscriptions/listen graceful close",
    revisions: MODERN,
    requestMethod: "subscriptions/listen",
    message: {
      jsonrpc: "2.0",
      id: "listen:1",
      result: {
        resultType: "complete",
        _meta: { "io.modelcontextprotocol/subscriptionId": "listen:1" },
      },
    },
  },
  {
    name: "resources/read result",
    revisions: MODERN,
    requestMethod: "resources/read",
    message: {
      jsonrpc: "2.0",
      id: 5,
      result: {
        resultType: "complete",
        contents: [{ uri: "file:///a", text: "x" }],
        ttlMs: 0,
        cacheScope: "public",
      },
    },
  },
  {
    name: "error: unsupported protocol version (-32022)",
    revisions: MODERN,
    message: {
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32022,
        message: "Unsupported protocol version",
        data: { supported: ["2026-07-28"], requested: "2027-01-01" },
      },
    },
  },
  {
    name: "notifications/cancelled",
    revisions: MODERN,
    message: {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 3, reason: "User requested cancellation" },
    },
  },
];

const httpError = (code: number, message: string) => ({
  jsonrpc: "2.0",
  id: null,
  error: { code, message },
});

/** Example messages of each revision, as the MCP specification shows them. */
export const digestFixtures: readonly Fixture[] = [
  {
    name: "digest: server-everything's answer to server/discover over stdio",
    revisions: [...LEGACY, ...MODERN],
    message: { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } },
  },
  {
    name: "digest: Not Acceptable (406) body of the SDK 1.x transport",
    revisions: LEGACY,
    message: httpError(
      -32000,
      "Not Acceptable: Client must accept both application/json and text/event-stream",
    ),
  },
  {
    name: "digest: Unsupported Media Type (415) body",
    revisions: LEGACY,
    message: httpError(-32000, "Unsupported Media Type: Content-Type must be application/json"),
  },
  {
    name: "digest: Server not initialized (400) body",
    revisions: LEGACY,
    message: httpError(-32000, "Bad Request: Server not initialized"),
  },
  {
    name: "digest: No valid session ID (400) body",
    revisions: LEGACY,
    message: httpError(-32000, "Bad Request: No valid session ID provided"),
  },
  {
    name: "digest: Session not found (404) body of the SDK transport",
    revisions: LEGACY,
    message: httpError(-32001, "Session not found"),
  },
  {
    name: "digest: Invalid Host (403) body",
    revisions: LEGACY,
    message: httpError(-32000, "Invalid Host: evil.example.com"),
  },
  {
    name: "digest: -32021 MissingRequiredClientCapability",
    revisions: MODERN,
    message: {
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32021,
        message: "Missing required client capability",
        data: { requiredCapabilities: { elicitation: {} } },
      },
    },
  },
  {
    name: "digest: -32020 HeaderMismatch",
    revisions: MODERN,
    message: {
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32020, message: "Mcp-Name header does not match params.name" },
    },
  },
  {
    name: "digest: -32042 URLElicitationRequired",
    revisions: ["2025-11-25"],
    message: {
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32042,
        message: "This request requires more information.",
        data: {
          elicitations: [
            {
              mode: "url",
              elicitationId: "e-1",
              url: "https://example.com/connect",
              message: "Authorize",
            },
          ],
        },
      },
    },
  },
  {
    name: "digest: a no-argument tool",
    revisions: LEGACY,
    requestMethod: "tools/list",
    message: {
      jsonrpc: "2.0",
      id: 1,
      result: {
        tools: [
          { name: "gateway_status", inputSchema: { type: "object", additionalProperties: false } },
        ],
      },
    },
  },
  {
    name: "digest: tool with annotations (2025-03-26+)",
    revisions: FROM_2025_03_26,
    requestMethod: "tools/list",
    message: {
      jsonrpc: "2.0",
      id: 1,
      result: {
        tools: [
          {
            name: "delete_file",
            inputSchema: { type: "object", properties: { path: { type: "string" } } },
            annotations: {
              title: "Delete",
              readOnlyHint: false,
              destructiveHint: true,
              idempotentHint: true,
              openWorldHint: false,
            },
          },
        ],
      },
    },
  },
  {
    name: "digest: tool with icons and execution.taskSupport (2025-11-25)",
    revisions: ["2025-11-25"],
    requestMethod: "tools/list",
    message: {
      jsonrpc: "2.0",
      id: 1,
      result: {
        tools: [
          {
            name: "render",
            inputSchema: { type: "object" },
            icons: [
              {
                src: "https://example.com/icon.png",
                mimeType: "image/png",
                sizes: ["48x48"],
                theme: "dark",
              },
            ],
            execution: { taskSupport: "optional" },
          },
        ],
      },
    },
  },
  {
    name: "digest: task-augmented tools/call and its CreateTaskResult (2025-11-25)",
    revisions: ["2025-11-25"],
    requestMethod: "tools/call",
    message: {
      jsonrpc: "2.0",
      id: 1,
      result: {
        task: {
          taskId: "t-1",
          status: "working",
          createdAt: "2025-11-25T10:30:00Z",
          lastUpdatedAt: "2025-11-25T10:30:00Z",
          ttl: 60000,
          pollInterval: 1000,
        },
      },
    },
  },
  {
    name: "digest: notifications/tasks/status (2025-11-25)",
    revisions: ["2025-11-25"],
    message: {
      jsonrpc: "2.0",
      method: "notifications/tasks/status",
      params: {
        taskId: "t-1",
        status: "completed",
        createdAt: "2025-11-25T10:30:00Z",
        lastUpdatedAt: "2025-11-25T10:31:00Z",
        ttl: null,
      },
    },
  },
  {
    name: "digest: sampling with tools and a tool_result turn (2025-11-25)",
    revisions: ["2025-11-25"],
    message: {
      jsonrpc: "2.0",
      id: 2,
      method: "sampling/createMessage",
      params: {
        messages: [
          { role: "user", content: { type: "text", text: "Weather in Paris?" } },
          {
            role: "assistant",
            content: [
              { type: "tool_use", id: "u1", name: "get_weather", input: { city: "Paris" } },
            ],
          },
          {
            role: "user",
            content: [
              { type: "tool_result", toolUseId: "u1", content: [{ type: "text", text: "18°C" }] },
            ],
          },
        ],
        tools: [
          {
            name: "get_weather",
            inputSchema: { type: "object", properties: { city: { type: "string" } } },
          },
        ],
        toolChoice: { mode: "auto" },
        maxTokens: 200,
      },
    },
  },
  {
    name: "digest: sampling result that asks to use a tool (2025-11-25)",
    revisions: ["2025-11-25"],
    requestMethod: "sampling/createMessage",
    message: {
      jsonrpc: "2.0",
      id: 2,
      result: {
        role: "assistant",
        content: [{ type: "tool_use", id: "u2", name: "get_weather", input: { city: "Lyon" } }],
        model: "m",
        stopReason: "toolUse",
      },
    },
  },
  {
    name: "digest: elicitation with titled enums and defaults (2025-11-25)",
    revisions: ["2025-11-25"],
    message: {
      jsonrpc: "2.0",
      id: 3,
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Preferences",
        requestedSchema: {
          type: "object",
          properties: {
            color: {
              type: "string",
              oneOf: [
                { const: "r", title: "Red" },
                { const: "g", title: "Green" },
              ],
              default: "r",
            },
            sizes: {
              type: "array",
              items: { type: "string", enum: ["S", "M", "L"] },
              minItems: 1,
              default: ["M"],
            },
            count: { type: "integer", minimum: 1, default: 2 },
            email: { type: "string", format: "email", default: "a@b.c" },
            agree: { type: "boolean", default: false },
          },
          required: ["color"],
        },
      },
    },
  },
  {
    name: "digest: notifications/elicitation/complete (2025-11-25)",
    revisions: ["2025-11-25"],
    message: {
      jsonrpc: "2.0",
      method: "notifications/elicitation/complete",
      params: { elicitationId: "e-1" },
    },
  },
  {
    name: "digest: completion with context (2025-06-18+)",
    revisions: FROM_2025_06_18,
    message: {
      jsonrpc: "2.0",
      id: 4,
      method: "completion/complete",
      params: {
        ref: { type: "ref/resource", uri: "github://repos/{owner}/{repo}" },
        argument: { name: "repo", value: "pat" },
        context: { arguments: { owner: "patchbay" } },
      },
    },
  },
  {
    name: "digest: modern prompts/get answered input_required with request state only",
    revisions: MODERN,
    requestMethod: "prompts/get",
    message: {
      jsonrpc: "2.0",
      id: 5,
      result: { resultType: "input_required", requestState: "load-shedding" },
    },
  },
  {
    name: "digest: modern request with log level, client info and trace context",
    revisions: MODERN,
    message: {
      jsonrpc: "2.0",
      id: 6,
      method: "resources/read",
      params: {
        uri: "file:///a",
        _meta: {
          ...modernMeta,
          "io.modelcontextprotocol/logLevel": "info",
          traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
          tracestate: "vendor=1",
          baggage: "user=alice",
        },
      },
    },
  },
];
