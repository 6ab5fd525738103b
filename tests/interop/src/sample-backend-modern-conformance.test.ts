import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConformanceCli, resolveConformanceCli } from "./conformance-cli.js";
import { runConformance } from "./run-conformance.js";
import { sampleBackendBin } from "./sample-backend-bin.js";
import { type StartedServer, startServer } from "./start-server.js";

const here = dirname(fileURLToPath(import.meta.url));

/** Scored 2026-07-28 scenarios of CLI 0.2.0-alpha.12 (50 run, 13 of them not scored). */
const SCORED_SCENARIOS = 37;

/** The `✓ name: …` / `✗ name: …` summary lines of a run: which scenarios passed. */
function readScenarioLines(output: string): Map<string, boolean> {
  return new Map(
    [...output.matchAll(/^([✓✗]) ([\w-]+): \d+ passed, \d+ failed$/gm)].map((match) => [
      match[2] ?? "",
      match[1] === "✓",
    ]),
  );
}

/**
 * The scored server scenarios of a revision, from the requirements file that ships inside the
 * pinned CLI (its top-level `server:` list; `not_scored:` entries are run but never count).
 */
function scoredServerScenarios(cli: ConformanceCli, revision: string): string[] {
  const file = join(dirname(cli.script), "..", "requirements", `${revision}.yaml`);
  const lines = readFileSync(file, "utf8").split("\n");
  const start = lines.indexOf("server:");
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^ {2}- ([\w-]+)$/.exec(line);
    if (match?.[1] === undefined) break;
    names.push(match[1]);
  }
  return names;
}

describe("official MCP conformance suite, modern era (server mode, --requirements 2026-07-28)", () => {
  let cli: ConformanceCli;
  let server: StartedServer | undefined;

  beforeAll(async () => {
    cli = resolveConformanceCli("modern");
    server = await startServer(sampleBackendBin, ["--transport", "http", "--port", "0"]);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("runs the pinned modern CLI release", () => {
    expect(cli.version).toBe("0.2.0-alpha.12");
  });

  it("passes every scored scenario against the sample backend over Streamable HTTP", async () => {
    const result = await runConformance(cli, [
      "server",
      "--url",
      server!.url,
      "--requirements",
      "2026-07-28",
      "--expected-failures",
      join(here, "..", "conformance-modern-expected-failures.yml"),
    ]);
    const scored = scoredServerScenarios(cli, "2026-07-28");
    expect(scored).toHaveLength(SCORED_SCENARIOS);
    const ran = readScenarioLines(result.output);
    const failing = scored.filter((name) => ran.get(name) !== true);
    expect(failing, result.output).toEqual([]);
    expect(scored.filter((name) => ran.get(name) === true)).toHaveLength(SCORED_SCENARIOS);
    expect(result.code, result.output).toBe(0);
  }, 300_000);
});
