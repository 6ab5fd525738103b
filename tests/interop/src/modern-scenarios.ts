import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ConformanceCli } from "./conformance-cli.js";

/**
 * The `✓ name: …` / `✗ name: …` summary lines of a run: which scenarios passed (a scenario with
 * warnings has a `✗` line).
 */
export function readScenarioLines(output: string): Map<string, boolean> {
  return new Map(
    [...output.matchAll(/^([✓✗]) ([\w/-]+): \d+ passed, \d+ failed(?:, \d+ warnings)?$/gm)].map(
      (match) => [match[2] ?? "", match[1] === "✓"],
    ),
  );
}

/**
 * The scored server scenarios of a revision, from the requirements file that ships inside the
 * pinned CLI (its top-level `server:` list; `not_scored:` entries are run but never count).
 */
export function scoredServerScenarios(cli: ConformanceCli, revision: string): string[] {
  return scoredScenarios(cli, revision, "server");
}

/** The scored client scenarios of a revision (the requirements file's top-level `client:` list). */
export function scoredClientScenarios(cli: ConformanceCli, revision: string): string[] {
  return scoredScenarios(cli, revision, "client");
}

function scoredScenarios(
  cli: ConformanceCli,
  revision: string,
  side: "server" | "client",
): string[] {
  const file = join(dirname(cli.script), "..", "requirements", `${revision}.yaml`);
  const lines = readFileSync(file, "utf8").split("\n");
  const start = lines.indexOf(`${side}:`);
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^ {2}- ([\w/-]+)$/.exec(line);
    if (match?.[1] === undefined) break;
    names.push(match[1]);
  }
  return names;
}

/**
 * The tasks extension `io.modelcontextprotocol/tasks` scenarios of CLI 0.2.0-alpha.12 (run, not
 * scored). The tenth, `tasks-status-notifications`, is skipped by this CLI release (pending a
 * harness rewrite).
 */
export const TASK_SCENARIOS: readonly string[] = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
];
