#!/usr/bin/env node
// `pnpm bench:micro`: builds the workspace, then runs every package's `bench` script one after another
// (never in parallel: the numbers are only comparable when nothing else runs beside them).
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const run = (args) => spawnSync("pnpm", args, { cwd: root, stdio: "inherit" }).status ?? 1;

if (run(["build"]) !== 0) process.exit(1);
process.exit(run(["-r", "--workspace-concurrency=1", "--if-present", "run", "bench"]));
