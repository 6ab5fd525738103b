import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redact } from "@patchbay/telemetry";
import { afterEach, describe, expect, it } from "vitest";
import { openAuditLog } from "./open-audit-log.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

const decision = {
  principal: "alice",
  method: "tools/call",
  tool: "gh__echo",
  outcome: "allowed" as const,
  durationMs: 1,
  arguments: { q: "x" },
};

describe("openAuditLog", () => {
  it("opens nothing without an audit block or a file", () => {
    const options = { configPath: "/etc/patchbay.json", redact, onError: () => {} };
    expect(openAuditLog(undefined, options)).toBeUndefined();
    expect(openAuditLog({ arguments: "full" }, options)).toBeUndefined();
  });

  it("writes next to the config file, with the configured argument policy", async () => {
    const directory = mkdtempSync(join(tmpdir(), "patchbay-audit-"));
    directories.push(directory);
    const log = openAuditLog(
      { file: "audit.jsonl", arguments: "none" },
      { configPath: join(directory, "gateway.json"), redact, onError: () => {} },
    );
    log?.record(decision);
    await log?.flush();
    const record = JSON.parse(readFileSync(join(directory, "audit.jsonl"), "utf8"));
    expect(record).toMatchObject({ principal: "alice", tool: "gh__echo" });
    expect(record).not.toHaveProperty("arguments");
  });

  it('writes "-" to the stdout it is given, and refuses it where there is none', async () => {
    let text = "";
    const log = openAuditLog(
      { file: "-" },
      {
        configPath: "/etc/patchbay.json",
        redact,
        onError: () => {},
        stdout: async (chunk) => {
          text += chunk;
        },
      },
    );
    log?.record(decision);
    await log?.flush();
    expect(JSON.parse(text)).toMatchObject({ tool: "gh__echo", arguments: ["q"] });
    expect(() =>
      openAuditLog({ file: "-" }, { configPath: "/etc/patchbay.json", redact, onError: () => {} }),
    ).toThrow(/carries the protocol/);
  });
});
