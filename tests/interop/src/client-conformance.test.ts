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

/** The scenarios `conformance client --suite auth` of CLI 0.1.16 runs (all of them count). */
const LEGACY_AUTH_SCENARIOS = [
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
];

/**
 * The scenario whose client must end in an error: the server keeps refusing the upgraded scope with
 * 403 `insufficient_scope`, and a client that stops retrying has nothing left to do but fail.
 */
const LEGACY_CLIENT_ERROR_EXPECTED = ["auth/scope-retry-limit"];

/**
 * The scenarios whose everything-client exited non-zero: in suite mode CLI 0.1.16 prints the
 * client's stderr after `Client exited with code N` but scores only its checks, so a client that
 * failed after its last checked step would still pass. The client names its scenario in the error.
 */
function scenariosWithClientErrors(output: string): string[] {
  const exits = output.match(/^Client exited with code /gm)?.length ?? 0;
  const named = [...output.matchAll(/^Error: ([\w/-]+) failed$/gm)].map((match) => match[1] ?? "");
  expect(named, output).toHaveLength(exits);
  return named.sort();
}

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

describe("official MCP conformance suite, client mode (CLI 0.1.16, --suite auth)", () => {
  it("passes every auth scenario of the legacy suite with the everything-client on @patchbay/client", async () => {
    const cli = resolveConformanceCli("legacy");
    expect(cli.version).toBe("0.1.16");
    const started = performance.now();
    const result = await runConformance(cli, [
      "client",
      "--command",
      `${process.execPath} ${everythingClient()}`,
      "--suite",
      "auth",
      "--expected-failures",
      join(here, "..", "conformance-client-legacy-auth-expected-failures.yml"),
      // All 14 clients start at once, as in the run above: the same generous deadline.
      "--timeout",
      "60000",
    ]);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const ran = readScenarioLines(result.output);
    const passing = LEGACY_AUTH_SCENARIOS.filter((name) => ran.get(name) === true);
    console.log(
      `client conformance 0.1.16 --suite auth: ${passing.length} of ${LEGACY_AUTH_SCENARIOS.length} scenarios pass (${seconds} s)`,
    );
    expect([...ran.keys()].sort(), result.output).toEqual([...LEGACY_AUTH_SCENARIOS].sort());
    expect(
      LEGACY_AUTH_SCENARIOS.filter((name) => ran.get(name) !== true),
      result.output,
    ).toEqual([]);
    expect(result.output).not.toMatch(/^Client timed out/m);
    expect(scenariosWithClientErrors(result.output), result.output).toEqual(
      LEGACY_CLIENT_ERROR_EXPECTED,
    );
    expect(result.code, result.output).toBe(0);
  }, 120_000);
});

describe("official MCP conformance suite, client mode (CLI 0.1.16, --suite backcompat)", () => {
  it("signs in to 2025-03-26 servers without protected resource metadata", async () => {
    const cli = resolveConformanceCli("legacy");
    const result = await runConformance(cli, [
      "client",
      "--command",
      `${process.execPath} ${everythingClient()}`,
      "--suite",
      "backcompat",
      "--timeout",
      "60000",
    ]);
    const ran = readScenarioLines(result.output);
    expect([...ran.entries()].sort(), result.output).toEqual([
      ["auth/2025-03-26-oauth-endpoint-fallback", true],
      ["auth/2025-03-26-oauth-metadata-backcompat", true],
    ]);
    expect(scenariosWithClientErrors(result.output), result.output).toEqual([]);
    expect(result.code, result.output).toBe(0);
  }, 120_000);
});
