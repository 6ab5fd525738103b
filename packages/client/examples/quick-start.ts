// The README's example, type-checked by `pnpm typecheck` (examples/ is in tsconfig.json).
import { createMemoryTransportPair, TimeoutError } from "@patchbay/jsonrpc-core";
import { createClient } from "../src/index.js";

const client = createClient(
  { name: "my-app", version: "1.0.0" },
  {
    // Each handler declares its capability; leave one out and the server is told you lack it.
    sampling: async (params) => ({
      role: "assistant",
      model: "my-model",
      content: { type: "text", text: `You sent ${params.messages.length} message(s)` },
    }),
    elicitation: async () => ({ action: "decline" }),
    roots: async () => ({ roots: [{ uri: "file:///home/me/project", name: "project" }] }),
  },
);

const [clientSide] = createMemoryTransportPair(); // use a stdio or HTTP transport in real code
await client.connect(clientSide);
console.log(
  client.protocolVersion,
  client.serverInfo,
  client.serverCapabilities,
  client.instructions,
);

const unsubscribe = client.on("notifications/tools/list_changed", async () => {
  console.log(
    "tools now:",
    (await client.listAllTools()).map((tool) => tool.name),
  );
});
client.on("notifications/message", ({ level, data }) => console.log(level, data));

const controller = new AbortController();
try {
  const result = await client.callTool(
    { name: "long_task", arguments: { steps: 10 } },
    {
      signal: controller.signal, // abort() sends notifications/cancelled
      timeoutMs: 30_000, // reset by every progress notification...
      resetTimeoutOnProgress: true,
      maxTotalTimeoutMs: 300_000, // ...but never longer than this
      onProgress: ({ progress, total, message }) => console.log(progress, total, message),
    },
  );
  console.log(result.isError === true ? "tool failed" : result.content);
} catch (error) {
  if (TimeoutError.isInstance(error)) console.error("gave up after", error.timeoutMs, "ms");
  else throw error;
}

const page = await client.listResources();
if (page.nextCursor !== undefined) await client.listResources({ cursor: page.nextCursor });
await client.setLoggingLevel("warning");
await client.subscribeResource("test://watched-resource");
unsubscribe();
await client.close();
