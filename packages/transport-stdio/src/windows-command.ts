import { statSync } from "node:fs";
import { win32 } from "node:path";

/** What to hand `child_process.spawn` for a command line. */
export interface PreparedCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** Set for `cmd.exe`, whose command line is quoted here rather than by Node. */
  readonly windowsVerbatimArguments?: true;
}

/** Where and how to look a command up; tests pass a fake platform and file system. */
export interface CommandLookup {
  readonly platform: NodeJS.Platform;
  /** The child's environment (its `PATH`/`Path`, `PATHEXT` and `ComSpec` are read). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The child's working directory, for relative commands. */
  readonly cwd: string;
  /** True when a regular file exists at the path. */
  readonly isFile?: (path: string) => boolean;
}

// cmd.exe metacharacters (the set cross-spawn escapes, after https://qntm.org/cmd).
const CMD_META_CHARACTERS = /([()\][%!^"`<>&|;, *?])/g;
// npm's shims in node_modules/.bin parse their arguments a second time, so they need doubled escapes.
const NPM_CMD_SHIM = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i;

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Reads an environment variable the way Windows does: the name in any case. */
function readVariable(env: CommandLookup["env"], name: string): string | undefined {
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

/**
 * Finds the file Windows would run for `command`: through `PATH` when it names no folder, trying
 * each `PATHEXT` extension (`npx` is `npx.cmd`). Undefined when nothing matches.
 */
export function findWindowsExecutable(command: string, lookup: CommandLookup): string | undefined {
  const isFile = lookup.isFile ?? isRegularFile;
  const extensions = (readVariable(lookup.env, "PATHEXT") ?? ".COM;.EXE;.BAT;.CMD")
    .split(";")
    .filter((extension) => extension !== "");
  const hasFolder = /[\\/]/.test(command);
  const folders = hasFolder
    ? [lookup.cwd]
    : [lookup.cwd, ...(readVariable(lookup.env, "PATH") ?? "").split(";")].filter((d) => d !== "");
  const names = win32.extname(command) === "" ? [] : [command];
  names.push(...extensions.map((extension) => command + extension.toLowerCase()));
  for (const folder of folders) {
    for (const name of names) {
      const path = win32.resolve(folder, name);
      if (isFile(path)) return path;
    }
  }
  return undefined;
}

/** Quotes one argument for `cmd.exe /s /c` (backslashes before quotes doubled, metacharacters escaped). */
export function quoteCmdArgument(argument: string, doubleEscape: boolean): string {
  // The lookaheads keep these linear on long runs of backslashes (no backtracking).
  let quoted = argument.replace(/(?=(\\+?)?)\1"/g, '$1$1\\"').replace(/(?=(\\+?)?)\1$/, "$1$1");
  quoted = `"${quoted}"`.replace(CMD_META_CHARACTERS, "^$1");
  return doubleEscape ? quoted.replace(CMD_META_CHARACTERS, "^$1") : quoted;
}

/**
 * How to spawn `command args` so that it behaves the same on every platform. On Windows,
 * `spawn("npx", ...)` fails with ENOENT because `npx` is `npx.cmd`, a batch file that only
 * `cmd.exe` runs; so batch files go through `cmd.exe /d /s /c` with every argument quoted for it,
 * and executables are spawned by their full path. Elsewhere the command is returned unchanged.
 */
export function prepareCommand(
  command: string,
  args: readonly string[],
  lookup: CommandLookup,
): PreparedCommand {
  if (lookup.platform !== "win32") return { command, args };
  const file = findWindowsExecutable(command, lookup);
  if (file === undefined) return { command, args };
  if (!/\.(cmd|bat)$/i.test(file)) return { command: file, args };
  const doubleEscape = NPM_CMD_SHIM.test(file);
  const line = [
    win32.normalize(file).replace(CMD_META_CHARACTERS, "^$1"),
    ...args.map((argument) => quoteCmdArgument(argument, doubleEscape)),
  ].join(" ");
  return {
    command: readVariable(lookup.env, "COMSPEC") ?? "cmd.exe",
    args: ["/d", "/s", "/c", `"${line}"`],
    windowsVerbatimArguments: true,
  };
}
