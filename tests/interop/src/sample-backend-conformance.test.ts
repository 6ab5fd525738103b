import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConformanceCli, resolveConformanceCli } from "./conformance-cli.js";
import { runConformance } from "./run-conformance.js";
import { sampleBackendBin } from "./sample-backend-bin.js";
import { type StartedServer, startServer } from "./start-server.js";

const here = dirname(fileURLToPath(import.meta.url));

describe("official MCP conformance suite (server mode, --suite all)", () => {
  let cli: ConformanceCli;
  let server: StartedServer | undefined;

  beforeAll(async () => {
    cli = resolveConformanceCli();
    server = await startServer(sampleBackendBin, ["--transport", "http", "--port", "0"]);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("runs the pinned CLI release", () => {
    expect(cli.version).toBe("0.1.16");
  });

  it("passes every scenario against the sample backend over Streamable HTTP", async () => {
    const result = await runConformance(cli, [
      "server",
      "--url",
      server!.url,
      "--suite",
      "all",
      "--expected-failures",
      join(here, "..", "conformance-expected-failures.yml"),
    ]);
    const total = /Total: (\d+) passed, (\d+) failed/.exec(result.output);
    expect(total, result.output).not.toBeNull();
    // 0.1.16 has 32 server scenarios and 44 checks; fewer passed checks means scenarios did not run.
    expect(Number(total?.[1])).toBeGreaterThanOrEqual(44);
    expect(Number(total?.[2]), result.output).toBe(0);
    expect(result.code, result.output).toBe(0);
  }, 300_000);
});
