import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { startGateway } from "../src/gateway.js";
import type { Logger } from "../src/logger.js";
import { temporaryDirectory, writeConfig } from "./gateway-helpers.js";

function capturingLogger() {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const write = (level: string) => (message: string) => {
    lines.push(`${level}: ${message}`);
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const logger: Logger = {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
  };
  const next = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      waiters.push({ pattern, resolve });
    });
  return { logger, lines, next };
}

describe("config reload", () => {
  it("keeps the previous config when the file becomes invalid, and logs why", async () => {
    const directory = temporaryDirectory();
    const path = writeConfig(directory, { mcpServers: {} });
    const { logger, next } = capturingLogger();
    const input = new PassThrough();
    const gateway = await startGateway({
      configPath: path,
      logger,
      version: "0.0.0",
      input,
      output: new PassThrough(),
    });
    try {
      const rejected = next(/keeping the previous config/);
      writeConfig(directory, { mcpServers: { broken: { command: 42 } } });
      await rejected;
      expect(gateway.router.config.backends).toEqual([]);
      const reloaded = next(/config reloaded/);
      writeConfig(directory, {
        mcpServers: { later: { command: "never-started", start: "lazy" } },
      });
      await reloaded;
      expect(gateway.router.config.backends.map((backend) => backend.name)).toEqual(["later"]);
    } finally {
      input.end();
      await gateway.stopped;
    }
  });
});

describe("telemetry", () => {
  it("appends events to the JSON Lines file named in the config, next to it", async () => {
    const directory = temporaryDirectory();
    const path = writeConfig(directory, {
      telemetry: { eventsFile: "events.jsonl" },
      mcpServers: {},
    });
    const input = new PassThrough();
    const gateway = await startGateway({
      configPath: path,
      logger: capturingLogger().logger,
      version: "0.0.0",
      input,
      output: new PassThrough(),
      watchConfig: false,
    });
    input.end();
    await gateway.stopped;
    const events = readFileSync(join(directory, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event_type: string; trace_id: string });
    expect(events.map((event) => event.event_type)).toEqual(
      expect.arrayContaining(["gateway.started", "gateway.stopped"]),
    );
    for (const event of events) expect(event.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });
});
