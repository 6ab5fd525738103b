// Loaded into a target with `--import` by `path-coverage.mjs`: V8's precise coverage with call
// counts per function (`callCount: true, detailed: false`) from the start. Each SIGUSR2 takes the
// coverage (which resets the counts), writes it to `<COVERAGE_PROBE_FILE>.<n>` and says so on
// stderr, so the first signal after warm-up starts the count and the second ends it.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

const file = process.env.COVERAGE_PROBE_FILE;
const session = new Session();
session.connect();
// A same-thread session answers synchronously: coverage is on before the target's first line.
session.post("Profiler.enable");
session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

let taken = 0;
process.on("SIGUSR2", () => {
  session.post("Profiler.takePreciseCoverage", (error, coverage) => {
    if (error) {
      process.stderr.write(`patchbay-bench-coverage-error ${error.message}\n`);
      return;
    }
    taken += 1;
    writeFileSync(`${file}.${taken}`, JSON.stringify(coverage.result));
    process.stderr.write(`patchbay-bench-coverage ${taken}\n`);
  });
});
