import type { ChildProcess, SpawnOptions } from "node:child_process";
import type { Transport } from "@patchbay/jsonrpc-core";

/** The subset of `child_process.spawn` the transport uses; pass your own to observe or fake it. */
export type SpawnFunction = (
  command: string,
  args: readonly string[],
  options: SpawnOptions,
) => ChildProcess;

/** Options of {@link createStdioClientTransport}. */
export interface StdioClientTransportOptions {
  /** The executable to run (looked up in the child's `PATH`). */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /** Its working directory; default this process's. */
  readonly cwd?: string;
  /** Variables added to the child's environment (on top of the safe default set). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Give the child this process's whole environment instead of the safe default set
   * (`getDefaultEnvironment()`). Default false: secrets in this process's environment stay here.
   */
  readonly inheritEnvironment?: boolean;
  /** The server's name, used in stderr prefixes and error messages; default the command's basename. */
  readonly name?: string;
  /**
   * What happens to the child's stderr: a function that receives each line, `"inherit"` (share this
   * process's stderr) or `"ignore"`. Default: each line goes to this process's stderr prefixed with
   * `[name] `. Piped stderr is always read, so a chatty child never blocks on it.
   */
  readonly stderr?: ((line: string) => void) | "inherit" | "ignore";
  /**
   * How long `close()` waits after ending the child's stdin before SIGTERM, and after SIGTERM before
   * SIGKILL, in milliseconds. Default 2,000.
   */
  readonly gracePeriodMs?: number;
  /** Longest line accepted, in UTF-8 bytes; longer lines are reported and skipped. Default 64 MiB. */
  readonly maxLineBytes?: number;
  /**
   * For a relay such as a gateway: a success response on a line of 64 KiB or more keeps the text of
   * its result, and sending that same result on over another transport of jsonrpc-core's framing
   * writes the text as it came instead of serializing the result again (unless it was changed in
   * place). The text stays in memory as long as the result does. Default false.
   */
  readonly relayLargeResults?: boolean;
  /**
   * Run the child in its own process group and signal the whole group, so that grandchildren (the
   * real server behind `npx` or a shell script) stop too. Default true, except on Windows.
   */
  readonly processGroup?: boolean;
  /** Replaces `child_process.spawn` (tests use it to record pids). */
  readonly spawn?: SpawnFunction;
}

/** What the close event of a stdio client transport carries in `details`. */
export type StdioExitDetails = {
  /** The command that was run. */
  readonly command: string;
  /** The child's process id, when it started. */
  readonly pid: number | undefined;
  /** Its exit code, or null when a signal ended it (or it never started). */
  readonly exitCode: number | null;
  /** The signal that ended it, or null. */
  readonly signal: NodeJS.Signals | null;
  /**
   * The last lines it wrote to stderr (at most 5, each cut to 240 characters), oldest first; empty
   * when its stderr is `"inherit"` or `"ignore"`.
   */
  readonly stderrTail: readonly string[];
};

/** A stdio client transport: a Transport plus facts about the child process. */
export interface StdioClientTransport extends Transport {
  /** The server's name, as used in stderr prefixes and errors. */
  readonly name: string;
  /** The child's process id once started. */
  readonly pid: number | undefined;
}

/** Default {@link StdioClientTransportOptions.gracePeriodMs}. */
export const DEFAULT_GRACE_PERIOD_MS = 2_000;
