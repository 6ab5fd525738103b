import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { root } from "./workspace.js";

/** The longest a function body may be, in lines from its first to its last line. */
export const MAX_FUNCTION_LINES = 150;

/** The non-test TypeScript source files of one package (`src/`, without `*.test.ts` and `test-support/`). */
export function packageSourceFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "test-support" && entry.name !== "node_modules") walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name)) {
        if (!entry.name.endsWith(".d.ts")) files.push(path);
      }
    }
  };
  const src = join(dir, "src");
  if (existsSync(src)) walk(src);
  return files.sort();
}

/** A function over the limit: where it is and how long. */
export interface LongFunction {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly lines: number;
}

/**
 * Every function-like node with a body (declarations, expressions, arrows, methods, accessors,
 * constructors), measured with the TypeScript parser from the line of its first token to the line
 * of its last; those longer than `limit` lines are returned.
 */
export function findLongFunctions(
  files: readonly string[],
  limit = MAX_FUNCTION_LINES,
): LongFunction[] {
  const found: LongFunction[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > limit) {
          found.push({ file: relative(root, file), line: start + 1, name: nameOf(node), lines });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name !== undefined && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (parent !== undefined && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  if (parent !== undefined && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  return "(anonymous)";
}

/**
 * The import cycles among one package's source files: relative imports and re-exports, type-only
 * ones included (a cycle of types is still a knot for a reader). Each cycle is listed once, as the
 * files along it.
 */
export function findImportCycles(files: readonly string[]): string[][] {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, "utf8"),
      ts.ScriptTarget.Latest,
      true,
    );
    const targets: string[] = [];
    for (const statement of source.statements) {
      const specifier =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
        statement.moduleSpecifier !== undefined &&
        ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : undefined;
      if (specifier === undefined || !specifier.startsWith(".")) continue;
      const target = resolveImport(file, specifier, known);
      if (target !== undefined) targets.push(target);
    }
    graph.set(file, targets);
  }
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === "open") {
        const cycle = stack.slice(stack.indexOf(target)).map((path) => relative(root, path));
        const key = [...cycle].sort().join("|");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      } else if (state.get(target) === undefined) visit(target);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of files) if (state.get(file) === undefined) visit(file);
  return cycles;
}

function resolveImport(from: string, specifier: string, known: Set<string>): string | undefined {
  const base = resolve(dirname(from), specifier).replace(/\.js$/, "");
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}
