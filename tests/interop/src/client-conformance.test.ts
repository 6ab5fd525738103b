import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolveConformanceCli } from "./conformance-cli.js";
import { readScenarioLines, scoredClientScenarios } from "./modern-scenarios.js";
import { runConformance } from "./run-conformance.js";

const here = dirname(fileURLToPath(import.meta.url));

/** Scored 2026-07-28 client scenarios of CLI 0.2.0-alpha.12, 25 of them `auth/*`. */
const SCORED_SCENARIOS = 32;

/** The built everything-client of `@patchbay/conformance-client` (`pnpm build` makes it). */
function everythingClient(): string {
  const packageDir = dirname(
    createRequire(import.meta.url).resolve("@patchbay/conformance-client/package.json"),
  );
  const script = join(packageDir, "dist", "everything-client.js");
  if (!existsSync(script)) {
    throw new Error(`${script} is missing: run \`pnpm build\` first`);
  }
  return script;
}

describe("official MCP conformance suite, client mode (--requirements 2026-07-28)", () => {
  it("passes every scored client scenario with the everything-client on @patchbay/client", async () => {
    const cli = resolveConformanceCli("modern");
    expect(cli.version).toBe("0.2.0-alpha.12");
    const started = performance.now();
    const result = await runConformance(cli, [
      "client",
      "--command",
      `${process.execPath} ${everythingClient()}`,
      "--requirements",
      "2026-07-28",
      "--expected-failures",
      join(here, "..", "conformance-client-expected-failures.yml"),
      // The CLI starts all 39 clients at once, each with its own deadline (30 s by default): on a
      // machine loaded many times over its two cores, some OAuth flows of many round trips missed
      // it (each scenario passes in 3 to 6 s alone). Every scenario must still pass.
      "--timeout",
      "60000",
    ]);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const scored = scoredClientScenarios(cli, "2026-07-28");
    expect(scored).toHaveLength(SCORED_SCENARIOS);
    expect(scored.filter((name) => name.startsWith("auth/"))).toHaveLength(25);
    const ran = readScenarioLines(result.output);
    const passing = scored.filter((name) => ran.get(name) === true);
    console.log(
      `client conformance 2026-07-28: ${passing.length} of ${scored.length} scored scenarios pass (${seconds} s)`,
    );
    expect(
      scored.filter((name) => ran.get(name) !== true),
      result.output,
    ).toEqual([]);
    expect(result.code, result.output).toBe(0);
  }, 120_000);
});
