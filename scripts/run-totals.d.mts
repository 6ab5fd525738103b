/** One package's vitest JSON report, named `<group>-<package>`. */
export interface NamedReport {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: the vitest JSON report as parsed.
  report: any;
}

/** Sums a run's reports; every way a run can be red counts as a failure. */
export function summarizeRun(run: {
  reports: NamedReport[];
  expected?: string[];
  runnerExitCode: number | null;
}): { passed: number; failed: number; problems: string[] };

/** Each package's test time (report start to its last file's end), slowest first. */
export function packageSeconds(reports: NamedReport[]): { name: string; seconds: number }[];

/** Reads every report in a folder. */
export function readReports(dir: string): NamedReport[];

/** The report names of every workspace package that has a `test` script. */
export function packagesWithTests(root: string): string[];
export function testPackageFolders(root: string): string[];
