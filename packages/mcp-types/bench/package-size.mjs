// What a consumer pays for this package: declaration size, the compiler's time, memory, types and
// instantiations (tsc --extendedDiagnostics) for a file that imports one type from the root entry
// and from each revision's subpath, and the minified bundle of importing one constant.
// Run: pnpm --filter @patchbay/mcp-types build && node packages/mcp-types/bench/package-size.mjs
// To measure another build (for example main's), pass a folder holding its package.json and dist.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ownDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(ownDir, "package.json"));
const measured = process.argv[2];
const tsc = join(dirname(require.resolve("typescript/package.json")), "bin", "tsc");
// esbuild comes with tsup (the build tool), so measure with the bundler the build already uses.
const { build } = require(createRequire(require.resolve("tsup/package.json")).resolve("esbuild"));
// Consumers live inside a package folder, so that "@patchbay/mcp-types" resolves to it
// (self-reference); a build given as argument is copied there with this package's node_modules.
const work = join(ownDir, ".cache", "package-size");
const packageDir = measured === undefined ? ownDir : join(work, "measured");

function declarationBytes(dir) {
  let total = 0;
  let largest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
    const size = statSync(join(entry.parentPath, entry.name)).size;
    total += size;
    largest = Math.max(largest, size);
  }
  return { total, largest };
}

/** Type-checks `source` with skipLibCheck off; returns the compiler's own figures. */
function compile(name, source, skipLibCheck = false) {
  // Under .cache (git-ignored, removed at the end) of the measured package folder.
  const dir = join(measured === undefined ? work : packageDir, "consumers", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "consumer.ts"), source);
  const compilerOptions = {
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    strict: true,
    skipLibCheck,
    noEmit: true,
    types: [],
  };
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions, files: ["consumer.ts"] }),
  );
  const output = execFileSync(process.execPath, [tsc, "-p", dir, "--extendedDiagnostics"], {
    encoding: "utf8",
  });
  const figure = (label) => output.match(new RegExp(`${label}:\\s+([\\d.]+)`))?.[1];
  return {
    memoryKB: Number(figure("Memory used")),
    totalSeconds: Number(figure("Total time")),
    types: Number(figure("Types")),
    instantiations: Number(figure("Instantiations")),
  };
}

async function bundledBytes(source) {
  const result = await build({
    stdin: { contents: source, resolveDir: packageDir, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    write: false,
  });
  return result.outputFiles[0].contents.byteLength;
}

rmSync(work, { recursive: true, force: true });
if (measured !== undefined) {
  mkdirSync(packageDir, { recursive: true });
  cpSync(join(measured, "package.json"), join(packageDir, "package.json"));
  cpSync(join(measured, "dist"), join(packageDir, "dist"), { recursive: true });
  symlinkSync(join(ownDir, "node_modules"), join(packageDir, "node_modules"));
}
try {
  const declarations = declarationBytes(join(packageDir, "dist"));
  const zodOnly = compile("zod-only", 'import { z } from "zod";\nexport const s = z.string();\n');
  const root = compile(
    "root",
    'import type { Tool } from "@patchbay/mcp-types";\nexport const t: Tool | undefined = undefined;\n',
  );
  const rootSkipping = compile(
    "root-skip-lib-check",
    'import type { Tool } from "@patchbay/mcp-types";\nexport const t: Tool | undefined = undefined;\n',
    true,
  );
  // Every revision subpath the measured build exports (none in the single-bundle build).
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  const revisions = Object.keys(manifest.exports ?? {})
    .filter((key) => /^\.\/\d{4}-\d{2}-\d{2}$/.test(key))
    .map((key) => key.slice(2));
  const perRevision = revisions.map((revision) => ({
    revision,
    figures: compile(
      `revision-${revision}`,
      `import type { Tool } from "@patchbay/mcp-types/${revision}";\nexport const t: Tool | undefined = undefined;\n`,
    ),
  }));
  const oneConstant = await bundledBytes(
    'import { LATEST_LEGACY_PROTOCOL_VERSION } from "@patchbay/mcp-types";\nconsole.log(LATEST_LEGACY_PROTOCOL_VERSION);\n',
  );
  const kb = (bytes) => (bytes < 10_240 ? `${bytes} B` : `${(bytes / 1024).toFixed(0)} KB`);
  console.log(
    `declarations: ${kb(declarations.total)} in all, largest file ${kb(declarations.largest)}`,
  );
  console.log(
    `tsc, one type from the root: ${root.totalSeconds} s, ${Math.round(root.memoryKB / 1024)} MB` +
      ` (a file using zod alone: ${zodOnly.totalSeconds} s, ${Math.round(zodOnly.memoryKB / 1024)} MB)`,
  );
  console.log(
    `the same with skipLibCheck: ${rootSkipping.totalSeconds} s, ${Math.round(rootSkipping.memoryKB / 1024)} MB`,
  );
  const counts = (figures) =>
    `${figures.types.toLocaleString("en-US")} types, ${figures.instantiations.toLocaleString("en-US")} instantiations`;
  console.log(`  (root: ${counts(root)}; zod alone: ${counts(zodOnly)})`);
  for (const { revision, figures } of perRevision) {
    console.log(
      `tsc, one type from @patchbay/mcp-types/${revision}: ${figures.totalSeconds} s, ${Math.round(figures.memoryKB / 1024)} MB (${counts(figures)})`,
    );
  }
  console.log(`bundle importing LATEST_LEGACY_PROTOCOL_VERSION, minified: ${kb(oneConstant)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
