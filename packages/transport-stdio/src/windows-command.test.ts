import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { findWindowsExecutable, prepareCommand, quoteCmdArgument } from "./windows-command.js";

// cross-spawn's escaping, the reference this module follows (a devDependency, for comparison only).
const crossSpawnEscape = createRequire(import.meta.url)("cross-spawn/lib/util/escape.js") as {
  argument(argument: string, doubleEscape: boolean): string;
};

/** A fake Windows file system: the set of files that exist. */
function windows(files: string[], env: Record<string, string> = {}) {
  const existing = new Set(files.map((file) => file.toLowerCase()));
  return {
    platform: "win32" as const,
    cwd: "C:\\work",
    env: { Path: "C:\\Program Files\\nodejs;C:\\Windows\\System32", ...env },
    isFile: (path: string) => existing.has(path.toLowerCase()),
  };
}

describe("prepareCommand", () => {
  it("leaves the command alone on other platforms", () => {
    const lookup = { platform: "linux" as const, cwd: "/work", env: { PATH: "/usr/bin" } };
    expect(prepareCommand("npx", ["-y", "a b"], lookup)).toEqual({
      command: "npx",
      args: ["-y", "a b"],
    });
  });

  it("runs an npm .cmd shim through cmd.exe with every argument quoted for it", () => {
    const lookup = windows(["C:\\Program Files\\nodejs\\npx.cmd"], {
      ComSpec: "C:\\Windows\\System32\\cmd.exe",
    });
    expect(
      prepareCommand("npx", ["-y", "@modelcontextprotocol/server-everything"], lookup),
    ).toEqual({
      command: "C:\\Windows\\System32\\cmd.exe",
      args: [
        "/d",
        "/s",
        "/c",
        '"C:\\Program^ Files\\nodejs\\npx.cmd ^"-y^" ^"@modelcontextprotocol/server-everything^""',
      ],
      windowsVerbatimArguments: true,
    });
  });

  it("double-escapes metacharacters for shims in node_modules/.bin, which parse them twice", () => {
    const shim = "C:\\work\\node_modules\\.bin\\server.cmd";
    const prepared = prepareCommand("node_modules\\.bin\\server", ["a&b"], windows([shim]));
    expect(prepared.command).toBe("cmd.exe");
    expect(prepared.args[3]).toBe('"C:\\work\\node_modules\\.bin\\server.cmd ^^^"a^^^&b^^^""');
  });

  it("spawns an executable by its full path, with the arguments as given", () => {
    const lookup = windows(["C:\\Program Files\\nodejs\\node.exe"]);
    expect(prepareCommand("node", ['say "hi"', "a&b"], lookup)).toEqual({
      command: "C:\\Program Files\\nodejs\\node.exe",
      args: ['say "hi"', "a&b"],
    });
  });

  it("leaves a command it cannot find to spawn, which reports it missing", () => {
    expect(prepareCommand("nowhere", ["x"], windows([]))).toEqual({
      command: "nowhere",
      args: ["x"],
    });
  });
});

describe("findWindowsExecutable", () => {
  it("tries the PATHEXT extensions in order, in each PATH folder", () => {
    const lookup = windows(["C:\\Windows\\System32\\tool.bat", "C:\\Windows\\System32\\tool.exe"], {
      PATHEXT: ".EXE;.BAT",
    });
    expect(findWindowsExecutable("tool", lookup)).toBe("C:\\Windows\\System32\\tool.exe");
  });

  it("reads Path, PATHEXT and ComSpec in any case, as Windows does", () => {
    const lookup = { ...windows(["D:\\bin\\tool.cmd"]), env: { pAtH: "D:\\bin", pathext: ".CMD" } };
    expect(findWindowsExecutable("tool", lookup)).toBe("D:\\bin\\tool.cmd");
  });

  it("takes a command with an extension as is, and a relative path from the working directory", () => {
    const lookup = windows(["C:\\work\\scripts\\serve.cmd"]);
    expect(findWindowsExecutable("scripts\\serve.cmd", lookup)).toBe(
      "C:\\work\\scripts\\serve.cmd",
    );
    expect(findWindowsExecutable("scripts/serve", lookup)).toBe("C:\\work\\scripts\\serve.cmd");
  });
});

describe("quoteCmdArgument", () => {
  const tricky = [
    "",
    "plain",
    "with space",
    'say "hi"',
    "C:\\dir\\",
    'back\\\\"slash',
    "a&b|c<d>e^f",
    "%PATH%",
    "!delayed!",
    "(paren) [bracket] ; , * ?",
    "`tick`",
    "\\".repeat(50_000),
  ];

  it.each([false, true])(
    "escapes exactly as cross-spawn does (double escape %s)",
    (doubleEscape) => {
      for (const argument of tricky) {
        expect(quoteCmdArgument(argument, doubleEscape)).toBe(
          crossSpawnEscape.argument(argument, doubleEscape),
        );
      }
    },
  );
});
