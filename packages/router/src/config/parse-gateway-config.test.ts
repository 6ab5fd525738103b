// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config values with ${VAR} references, not templates
import { describe, expect, it } from "vitest";
import { GatewayConfigError } from "./gateway-config-error.js";
import { parseGatewayConfig } from "./parse-gateway-config.js";

function issuesOf(value: unknown, environment = {}): { path: string; message: string }[] {
  try {
    parseGatewayConfig(value, { environment });
  } catch (error) {
    if (error instanceof GatewayConfigError) return [...error.issues];
    throw error;
  }
  throw new Error("expected the config to be rejected");
}

describe("parseGatewayConfig", () => {
  it("accepts the mcpServers block AI clients use and applies defaults", () => {
    const { config, warnings } = parseGatewayConfig({
      mcpServers: {
        github: { command: "npx", args: ["-y", "server-github"], env: { TOKEN: "t" } },
        remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer x" } },
      },
    });
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      namespaceSeparator: "__",
      maxNameLength: 64,
      conflictPolicy: "prefix",
      pageSize: 100,
    });
    expect(config.backends).toEqual([
      {
        name: "github",
        namespace: "github",
        transport: "stdio",
        command: "npx",
        args: ["-y", "server-github"],
        env: { TOKEN: "t" },
        timeoutMs: 60_000,
        maxTimeoutMs: 600_000,
        isolation: "shared",
        tools: {},
        start: "eager",
        restart: {},
        disabled: false,
      },
      expect.objectContaining({
        name: "remote",
        transport: "auto",
        url: "https://example.com/mcp",
        headers: { Authorization: "Bearer x" },
      }),
    ]);
  });

  it("keeps the order of the file", () => {
    const { config } = parseGatewayConfig({
      mcpServers: { zeta: { command: "z" }, alpha: { command: "a" }, mid: { command: "m" } },
    });
    expect(config.backends.map((backend) => backend.name)).toEqual(["zeta", "alpha", "mid"]);
  });

  it("reads every Patchbay key", () => {
    const { config } = parseGatewayConfig({
      namespaceSeparator: ".",
      maxNameLength: 60,
      conflictPolicy: "priority",
      pageSize: 20,
      telemetry: { bufferSize: 500, eventsFile: "/tmp/events.jsonl" },
      mcpServers: {
        browser: {
          command: "browser-mcp",
          namespace: "web",
          timeoutMs: 1000,
          maxTimeoutMs: 5000,
          isolation: "per-session",
          tools: { allow: ["nav_*"], deny: ["nav_evil"] },
          start: "lazy",
          restart: { maxAttempts: 3, initialDelayMs: 10 },
          cwd: "/srv",
          maxMessageBytes: 1_048_576,
        },
        old: { url: "http://127.0.0.1:9/sse", transport: "sse", restart: false },
      },
    });
    expect(config).toMatchObject({ namespaceSeparator: ".", maxNameLength: 60, pageSize: 20 });
    expect(config.telemetry).toEqual({ bufferSize: 500, eventsFile: "/tmp/events.jsonl" });
    expect(config.backends[0]).toMatchObject({
      namespace: "web",
      timeoutMs: 1000,
      maxTimeoutMs: 5000,
      isolation: "per-session",
      tools: { allow: ["nav_*"], deny: ["nav_evil"] },
      start: "lazy",
      restart: { maxAttempts: 3, initialDelayMs: 10 },
      cwd: "/srv",
      maxMessageBytes: 1_048_576,
    });
    expect(config.backends[1]).toMatchObject({ transport: "sse", restart: { enabled: false } });
  });

  it("picks Streamable HTTP with a fallback to SSE for a url without transport", () => {
    const { config } = parseGatewayConfig({ mcpServers: { a: { url: "http://127.0.0.1:1/mcp" } } });
    expect(config.backends[0]?.transport).toBe("auto");
  });

  it("accepts type as another spelling of transport, as VS Code and Cursor write it", () => {
    const { config } = parseGatewayConfig({
      mcpServers: {
        a: { type: "sse", url: "http://127.0.0.1:1/sse" },
        b: { type: "streamable-http", url: "http://127.0.0.1:1/mcp" },
        c: { type: "stdio", command: "x" },
      },
    });
    expect(config.backends.map((backend) => backend.transport)).toEqual(["sse", "http", "stdio"]);
  });

  it("allows an empty namespace, which exposes names unprefixed", () => {
    const { config } = parseGatewayConfig({ mcpServers: { a: { command: "a", namespace: "" } } });
    expect(config.backends[0]?.namespace).toBe("");
  });

  it("expands ${VAR} and ${VAR:-default} from the environment", () => {
    const { config } = parseGatewayConfig(
      {
        mcpServers: {
          gh: {
            command: "${NODE:-node}",
            env: { TOKEN: "${GH_TOKEN}" },
            timeoutMs: 5,
          },
        },
      },
      { environment: { GH_TOKEN: "secret" } },
    );
    expect(config.backends[0]).toMatchObject({ command: "node", env: { TOKEN: "secret" } });
  });

  it("names the path of an unset variable", () => {
    expect(
      issuesOf({ mcpServers: { gh: { command: "x", env: { TOKEN: "${GH_TOKEN}" } } } }),
    ).toEqual([
      {
        path: "mcpServers.gh.env.TOKEN",
        message: expect.stringMatching(/environment variable GH_TOKEN is not set/),
      },
    ]);
  });

  it("names the path and the expected type of a wrong value", () => {
    expect(issuesOf({ mcpServers: { gh: { command: "x", timeoutMs: "soon" } } })).toEqual([
      { path: "mcpServers.gh.timeoutMs", message: "expected number, received string" },
    ]);
  });

  it("names the allowed values of an enum", () => {
    const [issue] = issuesOf({ mcpServers: { a: { command: "x", isolation: "private" } } });
    expect(issue?.path).toBe("mcpServers.a.isolation");
    expect(issue?.message).toMatch(/"shared"\|"per-session"/);
  });

  it("reads a backend's protocolEra, leaves it unset by default and names a wrong one", () => {
    const { config } = parseGatewayConfig({
      mcpServers: { a: { command: "x", protocolEra: "auto" }, b: { command: "y" } },
    });
    expect(config.backends[0]?.protocolEra).toBe("auto");
    expect(config.backends[1]).not.toHaveProperty("protocolEra");
    const [issue] = issuesOf({ mcpServers: { a: { command: "x", protocolEra: "2026" } } });
    expect(issue?.path).toBe("mcpServers.a.protocolEra");
  });

  it("requires mcpServers", () => {
    expect(issuesOf({})).toEqual([
      { path: "mcpServers", message: expect.stringMatching(/expected record/) },
    ]);
  });

  it("requires command or url, and not both", () => {
    expect(issuesOf({ mcpServers: { a: {} } })[0]?.message).toMatch(/expected "command".*or "url"/);
    expect(issuesOf({ mcpServers: { a: { command: "x", url: "http://h/" } } })[0]?.message).toMatch(
      /not both/,
    );
  });

  it("rejects a transport that does not fit command or url", () => {
    expect(issuesOf({ mcpServers: { a: { command: "x", transport: "http" } } })).toEqual([
      {
        path: "mcpServers.a.transport",
        message: 'a server with "command" runs over stdio, not http',
      },
    ]);
    expect(issuesOf({ mcpServers: { a: { url: "http://h/", type: "stdio" } } })[0]?.path).toBe(
      "mcpServers.a.type",
    );
  });

  it("explains a key that cannot be a namespace", () => {
    expect(issuesOf({ mcpServers: { "my server": { command: "x" } } })).toEqual([
      {
        path: 'mcpServers["my server"]',
        message: expect.stringMatching(/key is used as the namespace.*set "namespace"/),
      },
    ]);
  });

  it("rejects a namespace containing the separator", () => {
    expect(issuesOf({ mcpServers: { a: { command: "x", namespace: "a__b" } } })[0]?.path).toBe(
      "mcpServers.a.namespace",
    );
  });

  it("rejects two backends with one namespace", () => {
    const issues = issuesOf({
      mcpServers: { a: { command: "x", namespace: "n" }, b: { command: "y", namespace: "n" } },
    });
    expect(issues).toEqual([
      { path: "mcpServers.b.namespace", message: expect.stringMatching(/already used by "a"/) },
    ]);
  });

  it("rejects a hard maximum below the timeout", () => {
    expect(
      issuesOf({ mcpServers: { a: { command: "x", timeoutMs: 10, maxTimeoutMs: 5 } } }),
    ).toEqual([
      { path: "mcpServers.a.maxTimeoutMs", message: "expected at least timeoutMs (10), got 5" },
    ]);
  });

  it("accepts maxMessageBytes only for stdio servers", () => {
    expect(
      issuesOf({ mcpServers: { a: { url: "http://127.0.0.1:9/mcp", maxMessageBytes: 10 } } }),
    ).toEqual([
      {
        path: "mcpServers.a.maxMessageBytes",
        message: 'maxMessageBytes applies to servers started with "command" (stdio) only',
      },
    ]);
  });

  it("raises the default hard maximum to a long timeout", () => {
    const { config } = parseGatewayConfig({
      mcpServers: { a: { command: "x", timeoutMs: 900_000 } },
    });
    expect(config.backends[0]?.maxTimeoutMs).toBe(900_000);
  });

  it("rejects an unusable separator and length budget", () => {
    const issues = issuesOf({ namespaceSeparator: "/", maxNameLength: 4, mcpServers: {} });
    expect(issues.map((issue) => issue.path)).toEqual(["namespaceSeparator", "maxNameLength"]);
  });

  it("warns about a colon separator and unknown keys but accepts them", () => {
    const { warnings } = parseGatewayConfig({
      namespaceSeparator: ":",
      colour: "blue",
      mcpServers: { a: { command: "x", timeout: 5 } },
    });
    expect(warnings).toEqual([
      "colour: unknown key, ignored",
      "mcpServers.a.timeout: unknown key timeout; did you mean timeoutMs?",
      expect.stringMatching(/^namespaceSeparator: .*outside the MCP tool-name alphabet/),
    ]);
  });

  it("lists every problem at once", () => {
    const issues = issuesOf({
      mcpServers: {
        a: { command: 1 },
        b: { url: "not a url" },
        c: { command: "x", start: "later" },
      },
    });
    expect(issues.map((issue) => issue.path)).toEqual([
      "mcpServers.a.command",
      "mcpServers.b.url",
      "mcpServers.c.start",
    ]);
  });

  it("puts the source file name and every issue in the message", () => {
    try {
      parseGatewayConfig({ mcpServers: { a: {} } }, { source: "gateway.json" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GatewayConfigError);
      expect((error as GatewayConfigError).code).toBe("INVALID_CONFIG");
      expect((error as Error).message).toMatch(/^Invalid config gateway.json:\n- mcpServers.a: /);
    }
  });
});

describe("parseGatewayConfig: profiles", () => {
  it("reads profiles of backends and tool globs", () => {
    const { config } = parseGatewayConfig({
      mcpServers: { a: { command: "x" }, b: { command: "y" } },
      profiles: { team: { backends: ["a"], tools: { deny: ["a__drop_*"] }, description: "Team" } },
    });
    expect(config.profiles).toEqual({
      team: { backends: ["a"], tools: { deny: ["a__drop_*"] }, description: "Team" },
    });
  });

  it("has no profiles by default", () => {
    expect(parseGatewayConfig({ mcpServers: {} }).config.profiles).toEqual({});
  });

  it("names a profile's backend that mcpServers lacks", () => {
    expect(() =>
      parseGatewayConfig({
        mcpServers: { a: { command: "x" } },
        profiles: { p: { backends: ["a", "zz"] } },
      }),
    ).toThrow(/profiles\.p\.backends\[1\]: expected a key of mcpServers, got "zz"/);
  });

  it("refuses __proto__ as a profile name and keeps names of Object.prototype out of reach", () => {
    const file = JSON.parse('{"mcpServers": {}, "profiles": {"__proto__": {"backends": []}}}');
    expect(() => parseGatewayConfig(file)).toThrow(/__proto__ is not a usable profile name/);
    const { config } = parseGatewayConfig({ mcpServers: {}, profiles: { team: {} } });
    expect(Object.getPrototypeOf(config.profiles)).toBe(Object.prototype);
    expect(Object.keys(config.profiles)).toEqual(["team"]);
  });

  it("refuses a profile name outside [A-Za-z0-9_.-]", () => {
    expect(() => parseGatewayConfig({ mcpServers: {}, profiles: { "a b": {} } })).toThrow(
      /profile names may only contain/,
    );
  });
});
