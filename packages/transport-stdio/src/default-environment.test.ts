import { describe, expect, it } from "vitest";
import { getDefaultEnvironment } from "./default-environment.js";

describe("getDefaultEnvironment", () => {
  it("keeps only the listed variables that are set", () => {
    const environment = getDefaultEnvironment(
      { PATH: "/bin", HOME: "/home/a", AWS_SECRET_ACCESS_KEY: "secret", LANG: undefined },
      ["PATH", "HOME", "LANG"],
    );
    expect(environment).toEqual({ PATH: "/bin", HOME: "/home/a" });
  });

  it("skips values that are exported shell functions", () => {
    expect(getDefaultEnvironment({ SHELL: "() { evil; }" }, ["SHELL"])).toEqual({});
  });

  it("inherits the usual safe variables by default", () => {
    const environment = getDefaultEnvironment({
      PATH: "/bin",
      HOME: "/h",
      USER: "u",
      SHELL: "/bin/sh",
      TERM: "xterm",
      LANG: "C.UTF-8",
      TMPDIR: "/tmp",
      GITHUB_TOKEN: "ghp_x",
    });
    if (process.platform === "win32") return;
    expect(Object.keys(environment).sort()).toEqual(
      ["HOME", "LANG", "PATH", "SHELL", "TERM", "TMPDIR", "USER"].sort(),
    );
  });
});
