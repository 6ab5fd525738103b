export interface TestPackage {
  /** The package folder from the workspace root, e.g. `apps/proxy`. */
  folder: string;
  /** Its recorded file seconds plus start-up, or an estimate when none are recorded. */
  seconds: number;
}

export function testPackagesSlowestFirst(
  root: string,
  recorded: Record<string, Record<string, number>>,
): TestPackage[];

export function runInLanes(
  root: string,
  queue: readonly TestPackage[],
  lanes: number,
  print: (line: string) => void,
): Promise<number>;
