// Validation cost of a typical tools/call request and result, against the built package (dist).
// Run: pnpm --filter @patchbay/mcp-types build && pnpm --filter @patchbay/mcp-types bench
import { toShallowDescriptor, v2025_11_25, v2026_07_28, validateMessage } from "../dist/index.js";

const request = {
  jsonrpc: "2.0",
  id: 42,
  method: "tools/call",
  params: {
    name: "github__create_issue",
    arguments: { owner: "patchbay", repo: "gateway", title: "Bug", labels: ["bug", "p1"] },
    _meta: {
      progressToken: "tok-42",
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    },
  },
};
const result = {
  jsonrpc: "2.0",
  id: 42,
  result: {
    content: [
      { type: "text", text: "Created issue #42: Bug" },
      {
        type: "image",
        data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
        mimeType: "image/png",
      },
      {
        type: "resource",
        resource: {
          uri: "https://github.com/patchbay/gateway/issues/42",
          mimeType: "application/json",
          text: '{"number":42}',
        },
      },
      {
        type: "resource_link",
        uri: "https://github.com/patchbay/gateway/issues/42",
        name: "issue-42",
      },
    ],
    structuredContent: { number: 42, url: "https://github.com/patchbay/gateway/issues/42" },
  },
};
const modernMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const modernRequest = { ...request, params: { ...request.params, _meta: modernMeta } };
const modernResult = { ...result, result: { ...result.result, resultType: "complete" } };

const descriptor = v2025_11_25.methods["tools/call"];
const shallow = toShallowDescriptor(descriptor);

const cases = [
  [
    "zod: CallToolRequestParamsSchema.parse (2025-11-25)",
    () => descriptor.params.parse(request.params),
  ],
  [
    "zod: CallToolResultSchema.parse (2025-11-25)",
    () => v2025_11_25.CallToolResultSchema.parse(result.result),
  ],
  [
    "zod: tools/call result.parse, CallToolResult | CreateTaskResult",
    () => descriptor.result.parse(result.result),
  ],
  ["validateMessage request, deep (2025-11-25)", () => validateMessage("2025-11-25", request)],
  [
    "validateMessage result, deep (2025-11-25)",
    () => validateMessage("2025-11-25", result, { requestMethod: "tools/call" }),
  ],
  [
    "validateMessage request, deep (2026-07-28)",
    () => validateMessage("2026-07-28", modernRequest),
  ],
  [
    "validateMessage result, deep (2026-07-28)",
    () => validateMessage("2026-07-28", modernResult, { requestMethod: "tools/call" }),
  ],
  ["shallow descriptor: params.parse", () => shallow.params.parse(request.params)],
  ["shallow descriptor: result.parse", () => shallow.result.parse(result.result)],
  [
    "validateMessage request, shallow",
    () => validateMessage("2025-11-25", request, { depth: "shallow" }),
  ],
  [
    "validateMessage result, shallow",
    () => validateMessage("2025-11-25", result, { requestMethod: "tools/call", depth: "shallow" }),
  ],
  ["baseline: JSON.parse(JSON.stringify(result))", () => JSON.parse(JSON.stringify(result))],
];

// Sanity: every case must succeed before it is timed.
for (const [name, run] of cases) {
  const outcome = run();
  if (outcome && outcome.success === false) throw new Error(`${name} failed: ${outcome.message}`);
}
void v2026_07_28;

const durationMs = Number(process.env.BENCH_MS ?? 1000);
console.log(`node ${process.version}, ${durationMs} ms per case\n`);
console.log("case".padEnd(66), "ops/s".padStart(12), "µs/op".padStart(9));
for (const [name, run] of cases) {
  for (let index = 0; index < 2000; index += 1) run();
  let operations = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < durationMs) {
    for (let index = 0; index < 200; index += 1) run();
    operations += 200;
    elapsed = performance.now() - start;
  }
  const perSecond = (operations / elapsed) * 1000;
  console.log(
    name.padEnd(66),
    Math.round(perSecond).toLocaleString("en-US").padStart(12),
    ((1000 / perSecond) * 1000).toFixed(2).padStart(9),
  );
}
