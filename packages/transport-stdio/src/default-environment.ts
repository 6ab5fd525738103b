/**
 * Variables a spawned server inherits by default: what a program needs to find executables, its
 * home, temporary directory, locale and terminal, and nothing that could hold a secret. The same
 * idea as the official SDK's `getDefaultEnvironment`, with locale and temporary directory added.
 */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] =
  process.platform === "win32"
    ? [
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PATHEXT",
        "PROCESSOR_ARCHITECTURE",
        "PROGRAMFILES",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "TMP",
        "USERNAME",
        "USERPROFILE",
        "WINDIR",
        "COMSPEC",
      ]
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR"];

/**
 * The default environment of a spawned server: the {@link DEFAULT_INHERITED_ENV_VARS} present in
 * `source`. Values that start with `()` are skipped: they are exported shell functions, a known way
 * to smuggle code into a child's shell.
 */
export function getDefaultEnvironment(
  source: Readonly<Record<string, string | undefined>> = process.env,
  names: readonly string[] = DEFAULT_INHERITED_ENV_VARS,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of names) {
    const value = source[name];
    if (value === undefined || value.startsWith("()")) continue;
    environment[name] = value;
  }
  return environment;
}
