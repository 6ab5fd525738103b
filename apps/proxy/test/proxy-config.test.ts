import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { startProxy } from "../src/proxy.js";
import { closeSdk, connectSdk, runProxyCli, sampleEntry, writeConfig } from "./proxy-helpers.js";

/** A credential store key: the per-principal cases get past the store to the config's issues. */
const KEY = randomBytes(32).toString("base64");

const quiet = {
  port: 0,
  version: "0.0.0-test",
  environment: {},
  writeLog: () => {},
  print: () => {},
};

describe("config files", () => {
  it("reads YAML and JSON with comments, and writes events to telemetry.eventsFile", async () => {
    const [command, ...args] = [sampleEntry().command, ...(sampleEntry().args as string[])];
    const yaml = writeConfig(
      `# the proxy\nmcpServers:\n  sample:\n    command: ${JSON.stringify(command)}\n    args: ${JSON.stringify(args)}\ntelemetry:\n  eventsFile: events.jsonl\n`,
      "proxy.yaml",
    );
    const proxy = await startProxy({ ...quiet, configPath: yaml.path });
    const connected = await connectSdk(proxy.url);
    await connected.client.callTool({ name: "sample__echo", arguments: { message: "x" } });
    await closeSdk(connected);
    await proxy.stop();
    const events = join(dirname(yaml.path), "events.jsonl");
    expect(existsSync(events)).toBe(true);
    expect(readFileSync(events, "utf8")).toContain('"backend":"sample"');
    yaml.remove();

    const jsonc = writeConfig(
      `{\n  // comments as VS Code writes them\n  "mcpServers": { "sample": ${JSON.stringify(sampleEntry())}, },\n}`,
      "proxy.jsonc",
    );
    const second = await startProxy({ ...quiet, configPath: jsonc.path });
    expect(second.router.config.backends.map((backend) => backend.name)).toEqual(["sample"]);
    await second.stop();
    jsonc.remove();
  });

  it("refuses a misspelt key, naming the likely intent", async () => {
    const file = writeConfig({ mcpServers: { sample: { comand: "x" } } });
    await expect(startProxy({ ...quiet, configPath: file.path })).rejects.toThrow(
      "mcpServers.sample.comand: unknown key comand; did you mean command?",
    );
    file.remove();
  });

  it("refuses a shared backend that signs in with OAuth (the proxy would reach it without a token)", async () => {
    const remote = { url: "https://mcp.example.com/mcp", oauth: { clientId: "patchbay" } };
    const file = writeConfig({ mcpServers: { remote } });
    await expect(startProxy({ ...quiet, configPath: file.path })).rejects.toThrow(
      'mcpServers.remote.oauth: patchbay-proxy signs in to a backend with OAuth only per principal (each user connects their own account): add "isolation": "per-principal", or give this backend headers',
    );
    file.remove();
  });

  it("refuses what a per-principal OAuth backend cannot use: redirectPort, credentials, a misspelt key", async () => {
    const remote = {
      url: "https://mcp.example.com/mcp",
      isolation: "per-principal",
      oauth: { scopes: ["mcp"] },
    };
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...remote, oauth: { redirectPort: 8765 } },
        "mcpServers.remote.oauth.redirectPort: patchbay-proxy sends the browser back to its own /oauth/callback/remote: remove redirectPort",
      ],
      [
        { ...remote, credentials: { headers: { Authorization: "Bearer {{token}}" } } },
        "mcpServers.remote.credentials: a per-principal backend with an oauth block sends each principal's own access token: remove credentials",
      ],
      [
        { ...remote, oauth: { scope: ["mcp"] } },
        "mcpServers.remote.oauth.scope: unknown key scope; did you mean scopes?",
      ],
    ];
    for (const [entry, message] of cases) {
      const file = writeConfig({
        mcpServers: { remote: entry },
        credentials: { file: "credentials.json" },
      });
      await expect(
        startProxy({
          ...quiet,
          configPath: file.path,
          environment: { PATCHBAY_CREDENTIALS_KEY: KEY },
        }),
      ).rejects.toThrow(message);
      file.remove();
    }
    const misspelt = writeConfig({
      mcpServers: { remote },
      credentials: { file: "credentials.json", publicURL: "https://mcp.example.com" },
    });
    await expect(startProxy({ ...quiet, configPath: misspelt.path })).rejects.toThrow(
      "credentials.publicURL: unknown key publicURL; did you mean publicUrl?",
    );
    misspelt.remove();
  });

  it("refuses a misspelt setByUser in a backend's credentials, naming the likely intent", async () => {
    const file = writeConfig({
      mcpServers: {
        remote: {
          url: "https://mcp.example.com/mcp",
          isolation: "per-principal",
          credentials: { headers: { Authorization: "Bearer {{token}}" }, setByUsr: true },
        },
      },
      credentials: { file: "credentials.json" },
    });
    await expect(
      startProxy({
        ...quiet,
        configPath: file.path,
        environment: { PATCHBAY_CREDENTIALS_KEY: KEY },
      }),
    ).rejects.toThrow(
      "mcpServers.remote.credentials.setByUsr: unknown key setByUsr; did you mean setByUser?",
    );
    file.remove();
  });

  it("exits 1 on a misspelt auth key instead of serving without auth, naming the key", async () => {
    const file = writeConfig({
      mcpServers: { sample: sampleEntry() },
      auth: { token: [{ name: "ops", token: "typo-token-0123456789abcdef" }] },
    });
    const { code, stdout, stderr } = await runProxyCli(["--config", file.path, "--port", "0"]);
    file.remove();
    expect(code).toBe(1);
    expect(stderr).toContain("auth.token: unknown key token; did you mean tokens?");
    expect(stderr).not.toContain("typo-token-0123456789abcdef");
    expect(stdout).not.toContain("serving MCP");
  });

  it("locates broken JSON by line and column, after comments and trailing commas", async () => {
    const file = writeConfig(
      '{\n  // the backends\n  "mcpServers": {\n    "sample": { "command": "x", },\n    "other" { "command": "y" }\n  }\n}',
      "proxy.jsonc",
    );
    await expect(startProxy({ ...quiet, configPath: file.path })).rejects.toThrow(
      "not valid JSON at line 5, column 13: Unexpected token '{'",
    );
    file.remove();
  });

  it("never shows auth tokens to clients in gateway_status", async () => {
    const token = "status-token-0123456789abcdef";
    const file = writeConfig({
      mcpServers: { sample: sampleEntry() },
      auth: { tokens: [{ name: "ops", token }] },
    });
    const proxy = await startProxy({ ...quiet, configPath: file.path });
    const connected = await connectSdk(proxy.url, { token });
    const status = await connected.client.callTool({ name: "gateway_status", arguments: {} });
    expect(JSON.stringify(status)).not.toContain(token);
    expect(JSON.stringify(status)).not.toContain('"auth"');
    await closeSdk(connected);
    await proxy.stop();
    file.remove();
  });
});
