// The README example, compiled by `pnpm typecheck` and run by test/examples.test.ts (the import
// path of the router is the only difference).
import { createClient } from "@patchbay/client";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createServer } from "@patchbay/server";
import { createRouter, parseGatewayConfig } from "../src/index.js";

export async function main(): Promise<string[]> {
  // Two backend servers; a real gateway spawns processes or opens HTTP connections instead.
  const github = createServer({ name: "github", version: "1.0.0" });
  github.registerTool("create_issue", {}, async () => ({
    content: [{ type: "text", text: "issue #1 created" }],
  }));
  const notes = createServer({ name: "notes", version: "1.0.0" });
  notes.registerTool("create_issue", {}, async () => ({
    content: [{ type: "text", text: "noted" }],
  }));

  // The config file's content: the `mcpServers` block AI clients use, plus Patchbay keys.
  const { config } = parseGatewayConfig(
    {
      mcpServers: {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a config value, expanded by the router
        github: { command: "github-mcp", env: { GITHUB_TOKEN: "${GITHUB_TOKEN:-none}" } },
        notes: { url: "http://127.0.0.1:3000/mcp", namespace: "memo", timeoutMs: 5_000 },
      },
    },
    { environment: { GITHUB_TOKEN: "ghp_example" } },
  );

  const router = createRouter({
    config,
    // One transport factory per kind of backend; here both are in-memory pairs.
    async connect(backend) {
      const [clientSide, serverSide] = createMemoryTransportPair();
      await (backend.name === "github" ? github : notes).connect(serverSide);
      return clientSide;
    },
  });
  await router.start();

  // Serve one client (the stdio gateway passes its stdin/stdout transport here).
  const [clientSide, gatewaySide] = createMemoryTransportPair();
  await router.serve(gatewaySide);
  const client = createClient({ name: "example", version: "1.0.0" });
  await client.connect(clientSide);

  const names = (await client.listAllTools()).map((tool) => tool.name);
  // ["gateway_status", "get_events", "github__create_issue", "memo__create_issue"]
  await client.callTool({ name: "memo__create_issue" }); // reaches `notes` as "create_issue"

  await client.close();
  await router.close();
  return names;
}
