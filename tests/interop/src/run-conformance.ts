import { execFile } from "node:child_process";
import type { ConformanceCli } from "./conformance-cli.js";

/** What a conformance CLI run printed and how it exited. */
export interface RunResult {
  code: number;
  output: string;
}

/** Runs the CLI with the pinned Node 22 (4 min limit); never rejects, the exit code tells. */
export function runConformance(cli: ConformanceCli, args: readonly string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      cli.node,
      [cli.script, ...args],
      { timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}
