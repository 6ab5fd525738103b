// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values with ${VAR} references
import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { gatewayCli, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

const secretBackend = join(import.meta.dirname, "fixtures", "secret-backend.mjs");

// One secret per route into the gateway; none may come back out anywhere.
const SECRETS = {
  header: "arg-secret-aaaa1111",
  password: "url-pass-bbbb2222",
  query: "query-secret-cccc3333",
  expanded: "env-secret-dddd4444",
  env: "plain-env-eeee5555",
  // From the client: a credential in a tool call's arguments.
  argument: "client-token-ffff6666",
};

function expectNoSecret(where: string, text: string): void {
  for (const secret of Object.values(SECRETS)) {
    expect(text.includes(secret), `${where} contains ${secret}`).toBe(false);
  }
}

let directory: string | undefined;
afterEach(() => {
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

describe("gateway: secrets", () => {
  it("never shows a secret in status, events, client errors, stderr or the 0600 events file", async () => {
    directory = temporaryDirectory();
    const configPath = writeConfig(directory, {
      telemetry: { eventsFile: "events.jsonl" },
      mcpServers: {
        gh: {
          command: process.execPath,
          args: [secretBackend, "--header", `Authorization: Bearer ${SECRETS.header}`],
          env: { GITHUB_TOKEN: "${GH_TOKEN}", API_SECRET: SECRETS.env },
        },
        remote: {
          url: `http://alice:${SECRETS.password}@127.0.0.1:1/mcp?api_key=${SECRETS.query}`,
          transport: "http",
          restart: false,
        },
      },
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [gatewayCli, "--config", configPath, "--log-level", "debug"],
      env: { PATH: process.env.PATH ?? "", GH_TOKEN: SECRETS.expanded },
      stderr: "pipe",
    });
    let stderr = "";
    // The backend prints its environment to stderr first thing; the gateway logs the line.
    let sawBackendEnv!: () => void;
    const backendEnvLogged = new Promise<void>((resolve) => {
      sawBackendEnv = resolve;
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes("[gh] env: GITHUB_TOKEN=")) sawBackendEnv();
    });
    const exited = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
    });
    const client = new Client({ name: "secrets-test", version: "1.0.0" });
    await client.connect(transport);

    const status = JSON.stringify(await client.callTool({ name: "gateway_status" }));
    const failure = await client
      .callTool({ name: "gh__leak", arguments: { authorization: `Bearer ${SECRETS.argument}` } })
      .then(
        () => undefined,
        (error: unknown) => error as { code: number; message: string; data?: unknown },
      );
    await backendEnvLogged;
    const events = JSON.stringify(
      await client.callTool({ name: "get_events", arguments: { limit: 1000 } }),
    );
    await client.close();
    await exited;

    expect(status).toContain("last_error");
    expectNoSecret("gateway_status", status);
    expect(events).toContain("backend.");
    expectNoSecret("get_events", events);
    expect(failure?.message).toContain("upstream refused token");
    expectNoSecret("the error sent to the client", JSON.stringify(failure));
    expect(JSON.stringify(failure?.data)).not.toContain("secret-path");
    expect(stderr).toContain("[gh] env: GITHUB_TOKEN=[REDACTED]");
    expectNoSecret("stderr", stderr);
    const eventsFile = join(directory, "events.jsonl");
    expect(statSync(eventsFile).mode & 0o777).toBe(0o600);
    const written = readFileSync(eventsFile, "utf8");
    expect(written).toContain("backend.");
    expectNoSecret("the events file", written);
  });
});
