import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { deriveTrialLockfile, type LocalTarball } from "./trial-lockfile.js";

// A workspace lockfile in miniature: `runner` has a peer-resolved snapshot, a transitive dependency,
// an optional one and an alias; `lib` is a packed workspace package with a registry dependency.
const workspace = {
  importers: {
    "tests/app": {
      devDependencies: {
        runner: { specifier: "catalog:", version: "2.0.0(peer@1.0.0)" },
        peer: { specifier: "^1", version: "1.0.0" },
      },
    },
    "packages/lib": { dependencies: { util: { specifier: "3.1.0", version: "3.1.0" } } },
  },
  packages: {
    "runner@2.0.0": { resolution: { integrity: "sha512-runner" } },
    "peer@1.0.0": { resolution: { integrity: "sha512-peer" } },
    "deep@1.0.10": { resolution: { integrity: "sha512-deep" } },
    "native@1.0.0": { resolution: { integrity: "sha512-native" }, os: ["darwin"] },
    "real-name@4.0.0": { resolution: { integrity: "sha512-real" } },
    "util@3.1.0": { resolution: { integrity: "sha512-util" } },
    "unrelated@9.0.0": { resolution: { integrity: "sha512-unrelated" } },
  },
  snapshots: {
    "runner@2.0.0(peer@1.0.0)": {
      dependencies: { peer: "1.0.0", deep: "1.0.10", alias: "real-name@4.0.0" },
      optionalDependencies: { native: "1.0.0" },
    },
    "peer@1.0.0": {},
    "deep@1.0.10": {},
    "native@1.0.0": { optional: true },
    "real-name@4.0.0": {},
    "util@3.1.0": {},
    "unrelated@9.0.0": {},
  },
};

const lib: LocalTarball = {
  file: "lib-0.0.0.tgz",
  importer: "packages/lib",
  manifest: {
    name: "@scope/lib",
    version: "0.0.0",
    dependencies: { util: "3.1.0" },
    peerDependencies: { runner: ">=2", absent: "^1" },
    peerDependenciesMeta: { absent: { optional: true } },
  },
};

function derive(tarballs: LocalTarball[] = [lib]) {
  return deriveTrialLockfile({
    workspace,
    registry: [{ name: "runner", importer: "tests/app" }],
    tarballs,
    integrity: (file) => `sha512-of-${file}`,
    overrides: {},
  });
}

describe("a trial project's lockfile, derived from the workspace's", () => {
  it("pins every transitive package at the workspace's version, and nothing else", () => {
    const trial = derive();
    expect(trial.registryPackages.sort()).toEqual([
      "deep@1.0.10",
      "native@1.0.0",
      "peer@1.0.0",
      "real-name@4.0.0",
      "runner@2.0.0",
      "util@3.1.0",
    ]);
    const lockfile = parse(trial.lockfile);
    expect(lockfile.packages["deep@1.0.10"]).toEqual({ resolution: { integrity: "sha512-deep" } });
    expect(lockfile.packages["native@1.0.0"].os).toEqual(["darwin"]);
    expect(lockfile.snapshots["runner@2.0.0(peer@1.0.0)"].dependencies.alias).toBe(
      "real-name@4.0.0",
    );
    expect(lockfile.packages["unrelated@9.0.0"]).toBeUndefined();
  });

  it("lists the project's dependencies with the specifiers its lockfile importer records", () => {
    const trial = derive();
    expect(trial.dependencies).toEqual({ "@scope/lib": "file:lib-0.0.0.tgz", runner: "2.0.0" });
    const importer = parse(trial.lockfile).importers["."].dependencies;
    expect(importer.runner).toEqual({ specifier: "2.0.0", version: "2.0.0(peer@1.0.0)" });
    expect(importer["@scope/lib"]).toEqual({
      specifier: "file:lib-0.0.0.tgz",
      version: "file:lib-0.0.0.tgz(runner@2.0.0(peer@1.0.0))",
    });
  });

  it("records a tarball with its integrity, its peers resolved to the project's own packages", () => {
    const lockfile = parse(derive().lockfile);
    expect(lockfile.packages["@scope/lib@file:lib-0.0.0.tgz"].resolution).toEqual({
      integrity: "sha512-of-lib-0.0.0.tgz",
      tarball: "file:lib-0.0.0.tgz",
    });
    expect(lockfile.snapshots["@scope/lib@file:lib-0.0.0.tgz(runner@2.0.0(peer@1.0.0))"]).toEqual({
      dependencies: { util: "3.1.0", runner: "2.0.0(peer@1.0.0)" },
    });
  });

  it("refuses what the workspace lockfile does not pin, instead of leaving it to resolution", () => {
    const drifting = { ...lib, manifest: { ...lib.manifest, dependencies: { fresh: "1.0.11" } } };
    expect(() => derive([drifting])).toThrow("packages/lib does not depend on fresh");
    const peerless = { ...lib, manifest: { ...lib.manifest, peerDependencies: { missing: "1" } } };
    expect(() => derive([peerless])).toThrow("needs the peer missing");
  });
});
