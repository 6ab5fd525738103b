import { z } from "zod";
import { joinPath } from "./expand-variables.js";
import type { GatewayConfig } from "./gateway-config.js";
import type { ConfigIssue } from "./gateway-config-error.js";
import { GatewayConfigFileSchema } from "./gateway-config-schema.js";
import { suggestKey } from "./suggest-key.js";

/**
 * A top-level block that an app adds to the config file the router reads: its schema and its own
 * checks. A block of a name the router reads too (such as `limits`) adds keys to the router's block
 * and may not redefine one of them.
 */
export interface ConfigBlock<Schema extends z.ZodObject = z.ZodObject> {
  /** The block's schema; its keys are the block's known keys. */
  readonly schema: Schema;
  /**
   * Problems of the block as written (`${VAR}` expanded, `undefined` when the file has none),
   * checked whether or not the file passes its schema: unknown keys that must be errors, not
   * warnings (see {@link unknownKeyIssues}).
   */
  writtenIssues?(block: unknown): readonly ConfigIssue[];
  /** Problems of the block as parsed, checked once the whole file passes its schema. */
  parsedIssues?(block: z.output<Schema>): readonly ConfigIssue[];
}

/** The blocks an app adds, by name. */
export type ConfigBlocks = { readonly [name: string]: ConfigBlock };

/** No added blocks: the config as the router alone reads it. */
export type NoConfigBlocks = Record<never, never>;

/** A gateway config and the blocks an app added, each as parsed when the file has it. */
export type ConfigWithBlocks<Blocks extends ConfigBlocks> = GatewayConfig & {
  readonly [Name in keyof Blocks]?: z.output<Blocks[Name]["schema"]>;
};

/** Top-level blocks to drop unread, for an app that runs a config file written for another. */
export interface IgnoredBlocks {
  /** The blocks' names. */
  readonly names: readonly string[];
  /** Who reads them, for the warning (`patchbay-proxy`). */
  readonly readBy: string;
}

/** Keys that hold in every app, kept when their block is ignored: the per-tool limits. */
const READ_EVERYWHERE: Readonly<Record<string, string>> = { limits: "tools" };

/** Whether `value` is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The keys of object `node` that `known` lacks, as errors at `path` saying `why` they are errors,
 * each with the likely intent when one is close (`suggestKey`).
 */
export function unknownKeyIssues(
  node: unknown,
  known: ReadonlySet<string>,
  path: string,
  why: string,
): ConfigIssue[] {
  if (!isRecord(node)) return [];
  return Object.keys(node)
    .filter((key) => !known.has(key))
    .map((key) => {
      const suggestion = suggestKey(key, known);
      const hint = suggestion === undefined ? "" : `; did you mean ${suggestion}?`;
      return { path: joinPath(path, key), message: `unknown key ${key}${hint} (${why})` };
    });
}

/** `value` without the `ignored` blocks (but the keys read everywhere), and a warning naming them. */
export function withoutIgnoredBlocks(
  value: unknown,
  ignored: IgnoredBlocks,
): { value: unknown; warning: string | undefined } {
  if (!isRecord(value)) return { value, warning: undefined };
  const rest: Record<string, unknown> = { ...value };
  const names: string[] = [];
  for (const name of ignored.names) {
    if (!Object.hasOwn(value, name)) continue;
    delete rest[name];
    const block = value[name];
    const kept = READ_EVERYWHERE[name];
    if (kept === undefined || !isRecord(block) || block[kept] === undefined) {
      names.push(name);
      continue;
    }
    rest[name] = { [kept]: block[kept] };
    if (Object.keys(block).length > 1) names.push(`${name} (but ${name}.${kept})`);
  }
  if (names.length === 0) return { value: rest, warning: undefined };
  return {
    value: rest,
    warning: `${names.join(", ")}: read by ${ignored.readBy} only; ignored here (not expanded, not checked)`,
  };
}

const fileSchemas = new WeakMap<ConfigBlocks, z.ZodObject>();

/** The router's own schema of `name`'s block, when it reads one of that name. */
function ownBlockSchema(name: string): z.ZodType | undefined {
  if (!Object.hasOwn(GatewayConfigFileSchema.shape, name)) return undefined;
  const own = (GatewayConfigFileSchema.shape as Record<string, z.ZodType>)[name];
  return own instanceof z.ZodOptional ? (own.unwrap() as z.ZodType) : own;
}

/** The block of `name` that the file's schema checks: the app's, merged into the router's own. */
function mergedBlockSchema(name: string, block: ConfigBlock): z.ZodObject {
  const own = ownBlockSchema(name);
  if (own === undefined) return block.schema;
  if (!(own instanceof z.ZodObject)) {
    throw new TypeError(`the config block "${name}" is the router's and takes no added keys`);
  }
  const clash = Object.keys(block.schema.shape).find((key) => Object.hasOwn(own.shape, key));
  if (clash !== undefined) {
    throw new TypeError(`the config block "${name}" may not redefine the router's key "${clash}"`);
  }
  return own.extend(block.schema.shape);
}

/** The schema of a config file with the blocks an app added (built once per `blocks` object). */
export function fileSchemaWith(blocks: ConfigBlocks): z.ZodObject {
  if (Object.keys(blocks).length === 0) return GatewayConfigFileSchema;
  const cached = fileSchemas.get(blocks);
  if (cached !== undefined) return cached;
  const shape = Object.fromEntries(
    Object.entries(blocks).map(([name, block]) => [
      name,
      mergedBlockSchema(name, block).optional(),
    ]),
  );
  const schema = GatewayConfigFileSchema.extend(shape);
  fileSchemas.set(blocks, schema);
  return schema;
}

/** The problems of the added blocks as written, block by block. */
export function writtenBlockIssues(
  root: Record<string, unknown>,
  blocks: ConfigBlocks,
): ConfigIssue[] {
  return Object.entries(blocks).flatMap(([name, block]) => block.writtenIssues?.(root[name]) ?? []);
}

/** The problems of the added blocks as parsed (those the file has), block by block. */
export function parsedBlockIssues(
  file: Record<string, unknown>,
  blocks: ConfigBlocks,
): ConfigIssue[] {
  return Object.entries(blocks).flatMap(([name, block]) =>
    file[name] === undefined
      ? []
      : (block.parsedIssues?.(file[name] as Record<string, unknown>) ?? []),
  );
}

/** The added blocks the file has that the router does not read itself, as parsed. */
export function addedBlockValues(
  file: Record<string, unknown>,
  blocks: ConfigBlocks,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(blocks)
      .filter((name) => ownBlockSchema(name) === undefined && file[name] !== undefined)
      .map((name) => [name, file[name]]),
  );
}
