import { describe, expect, it } from "vitest";
import { GatewayConfigError } from "../config/gateway-config-error.js";
import { parseGatewayConfig } from "../config/parse-gateway-config.js";

function issuesOf(file: unknown): { path: string; message: string }[] {
  try {
    parseGatewayConfig(file);
  } catch (error) {
    if (error instanceof GatewayConfigError) return [...error.issues];
    throw error;
  }
  throw new Error("the config was accepted");
}

const withOverrides = (tools: Record<string, unknown>, namespace?: string) => ({
  command: "x",
  ...(namespace === undefined ? {} : { namespace }),
  overrides: { tools },
});

describe("config: tool overrides", () => {
  it("keeps backend and profile overrides and the scan mode", () => {
    const { config } = parseGatewayConfig({
      scan: "withhold",
      mcpServers: { github: withOverrides({ create_issue: { name: "open_ticket" } }) },
      profiles: {
        support: { overrides: { tools: { github__open_ticket: { description: "d" } } } },
      },
    });
    expect(config.scan).toBe("withhold");
    expect(config.backends[0]?.overrides).toEqual({
      tools: { create_issue: { name: "open_ticket" } },
    });
    expect(config.profiles.support?.overrides).toEqual({
      tools: { github__open_ticket: { description: "d" } },
    });
  });

  it("refuses an unknown override key, naming it", () => {
    const issues = issuesOf({
      mcpServers: { github: withOverrides({ create_issue: { descripton: "typo" } }) },
    });
    expect(issues).toEqual([
      {
        path: "mcpServers.github.overrides.tools.create_issue",
        message: expect.stringContaining('"descripton"'),
      },
    ]);
    const inProfile = issuesOf({
      mcpServers: { github: { command: "x" } },
      profiles: { p: { overrides: { tools: { a__b: { rename: "c" } } } } },
    });
    expect(inProfile[0]?.path).toBe("profiles.p.overrides.tools.a__b");
    expect(inProfile[0]?.message).toContain('"rename"');
    expect(
      issuesOf({ mcpServers: { github: { command: "x", overrides: { prompts: {} } } } })[0]
        ?.message,
    ).toContain('"prompts"');
    const annotation = issuesOf({
      mcpServers: {
        github: withOverrides({ create_issue: { annotations: { readonlyHint: true } } }),
      },
    });
    expect(annotation[0]?.path).toBe("mcpServers.github.overrides.tools.create_issue.annotations");
    expect(annotation[0]?.message).toContain('"readonlyHint"');
  });

  it("refuses a name that is not a tool name and an unknown scan mode", () => {
    expect(
      issuesOf({ mcpServers: { github: withOverrides({ create_issue: { name: "has space" } }) } }),
    ).toEqual([
      {
        path: "mcpServers.github.overrides.tools.create_issue.name",
        message: "tool names are 1 to 128 characters of [A-Za-z0-9_.-]",
      },
    ]);
    expect(issuesOf({ scan: "loud", mcpServers: { a: { command: "x" } } })[0]?.path).toBe("scan");
  });

  it("refuses two tools renamed to one exposed name, in one backend or across unprefixed ones", () => {
    expect(
      issuesOf({
        mcpServers: {
          github: withOverrides({ create_issue: { name: "new" }, open_issue: { name: "new" } }),
        },
      }),
    ).toEqual([
      {
        path: "mcpServers.github.overrides.tools.open_issue.name",
        message: expect.stringContaining(
          '"github__new", which mcpServers.github.overrides.tools.create_issue.name already is',
        ),
      },
    ]);
    const across = issuesOf({
      mcpServers: {
        a: withOverrides({ x: { name: "shared" } }, ""),
        b: withOverrides({ y: { name: "shared" } }, ""),
      },
    });
    expect(across.map((issue) => issue.path)).toEqual(["mcpServers.b.overrides.tools.y.name"]);
  });

  it("refuses a rename onto a tool the overrides name and that keeps its name, or a gateway tool", () => {
    const onto = issuesOf({
      mcpServers: {
        github: withOverrides({ search: { description: "d" }, find: { name: "search" } }),
      },
    });
    expect(onto.map((issue) => issue.path)).toEqual([
      "mcpServers.github.overrides.tools.find.name",
    ]);
    const gateway = issuesOf({
      mcpServers: { a: withOverrides({ status: { name: "gateway_status" } }, "") },
    });
    expect(gateway[0]?.message).toContain("the gateway's own tool");
  });

  it("allows two tools to swap names", () => {
    const { config } = parseGatewayConfig({
      mcpServers: { a: withOverrides({ x: { name: "y" }, y: { name: "x" } }) },
    });
    expect(config.backends[0]?.overrides?.tools).toEqual({ x: { name: "y" }, y: { name: "x" } });
  });

  it("refuses a profile rename onto another exposed name the config knows", () => {
    const issues = issuesOf({
      mcpServers: {
        github: withOverrides({ create_issue: { name: "open_ticket" } }),
        files: withOverrides({ read: {} }),
      },
      profiles: {
        p: {
          overrides: {
            tools: {
              github__open_ticket: { name: "files__read" },
              github__search: { name: "get_events" },
            },
          },
        },
        other: {
          backends: ["github"],
          overrides: { tools: { github__search: { name: "files__read" } } },
        },
      },
    });
    expect(issues.map((issue) => issue.path)).toEqual([
      "profiles.p.overrides.tools.github__open_ticket.name",
      "profiles.p.overrides.tools.github__search.name",
    ]);
  });
});
