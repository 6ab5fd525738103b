/** A marker's meaning, or the error of a block without a usable one. */
export type Plan =
  | { verb: "skip"; reason: string; error?: undefined }
  | ({ verb: "slow"; reason: string } & Options)
  | ({ verb: "run" | "while-serving" } & Options)
  | ({ verb: "serve"; each: boolean; ready: string } & Options)
  | { error: string; verb?: undefined };

/** The options of `run`, `while serving`, `slow` and `serve`. */
export interface Options {
  error?: undefined;
  cwd?: string;
  home?: true;
  expect?: string;
  server?: { command: string; ready: string };
}

/** A fenced shell block of a Markdown text. */
export interface ShellBlock {
  line: number;
  language: "sh" | "bash" | "shell" | "console";
  commands: string;
  marker: string | undefined;
}

export interface PlannedBlock extends ShellBlock {
  file: string;
  plan: Plan;
}

export type Unit =
  | { kind: "error"; block: PlannedBlock; error: string }
  | { kind: "skip"; block: PlannedBlock; reason: string }
  | { kind: "run"; block: PlannedBlock }
  | {
      kind: "serve";
      server: { cwd: string; commands: string[]; ready: string };
      owner: PlannedBlock | undefined;
      members: PlannedBlock[];
    };

/** The documents whose shell blocks are checked, relative to the repository root. */
export function documentsOf(root: string): string[];
/** The fenced shell blocks of a Markdown text. */
export function findShellBlocks(text: string): ShellBlock[];
/** A marker's meaning (the text between `readme-commands:` and `-->`). */
export function parseMarker(marker: string | undefined): Plan;
/** The shell blocks of the documents, each with its plan. */
export function planBlocks(root: string, files?: string[]): PlannedBlock[];
/** The blocks grouped into what runs, in order. */
export function planUnits(blocks: PlannedBlock[], options?: { all?: boolean }): Unit[];
