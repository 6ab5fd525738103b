import { DESCRIPTION_RULES, INVISIBLE_CHARACTERS, type ScanRule } from "./description-rules.js";

/** One thing the scanner flagged in a tool's or prompt's text. */
export interface ScanFinding {
  readonly rule: ScanRule;
  /** Where: `description`, `title`, `inputSchema.properties.<name>.description`, `arguments.<name>.description`. */
  readonly field: string;
  /** The text around the match, at most `EXCERPT_LENGTH` characters, invisible ones escaped. */
  readonly excerpt: string;
}

/** The longest excerpt a finding carries (before escaping). */
export const EXCERPT_LENGTH = 120;

const invisibleGlobal = new RegExp(INVISIBLE_CHARACTERS.source, "gu");

/** `text` with every invisible character written as `\u{…}`, so a log or a page shows it. */
export function escapeInvisible(text: string): string {
  return text.replace(
    invisibleGlobal,
    (character) => `\\u{${(character.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`,
  );
}

function isLowSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Up to `EXCERPT_LENGTH` characters of `text` centred on a match, never splitting a pair. */
function excerptAround(text: string, start: number, length: number): string {
  const room = EXCERPT_LENGTH - Math.min(length, EXCERPT_LENGTH);
  let from = Math.max(0, Math.min(start - Math.floor(room / 2), text.length - EXCERPT_LENGTH));
  if (isLowSurrogate(text, from)) from -= 1;
  let to = Math.min(text.length, from + EXCERPT_LENGTH);
  if (isLowSurrogate(text, to)) to += 1;
  const before = from > 0 ? "…" : "";
  const after = to < text.length ? "…" : "";
  return `${before}${escapeInvisible(text.slice(from, to))}${after}`;
}

/** The findings of every rule in one text (each rule at most once, at its first match). */
export function scanText(text: string, field: string): ScanFinding[] {
  const findings: ScanFinding[] = [];
  const invisible = INVISIBLE_CHARACTERS.exec(text);
  if (invisible) {
    findings.push({
      rule: "invisible-unicode",
      field,
      excerpt: excerptAround(text, invisible.index, 1),
    });
  }
  for (const { rule, patterns, requires } of DESCRIPTION_RULES) {
    if (requires !== undefined && !requires.test(text)) continue;
    for (const pattern of patterns) {
      const match = pattern.exec(text);
      if (!match) continue;
      findings.push({ rule, field, excerpt: excerptAround(text, match.index, match[0].length) });
      break;
    }
  }
  return findings;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const maxSchemaDepth = 8;

/** Every `description` (and `title`) string inside a JSON Schema, with its path. */
function schemaTexts(schema: unknown, path: string, depth: number, out: [string, string][]): void {
  if (!isObject(schema) || depth > maxSchemaDepth) return;
  for (const key of ["description", "title"] as const) {
    const value = schema[key];
    if (typeof value === "string") out.push([`${path}.${key}`, value]);
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && isObject(value)) {
      for (const [name, property] of Object.entries(value)) {
        schemaTexts(property, `${path}.properties.${name}`, depth + 1, out);
      }
    } else if (key === "items" || key === "additionalProperties") {
      schemaTexts(value, `${path}.${key}`, depth + 1, out);
    }
  }
}

/**
 * The findings in a tool's or prompt's text as a backend lists it: its title and description, the
 * descriptions in a tool's `inputSchema`, and a prompt's argument descriptions. Heuristics: a
 * finding is a reason to look, not a proof; an ordinary description rarely trips them.
 */
export function scanDescriptions(item: Readonly<Record<string, unknown>>): ScanFinding[] {
  const texts: [string, string][] = [];
  for (const key of ["title", "description"] as const) {
    const value = item[key];
    if (typeof value === "string") texts.push([key, value]);
  }
  schemaTexts(item.inputSchema, "inputSchema", 0, texts);
  if (Array.isArray(item.arguments)) {
    for (const argument of item.arguments) {
      if (isObject(argument) && typeof argument.description === "string") {
        texts.push([`arguments.${String(argument.name)}.description`, argument.description]);
      }
    }
  }
  return texts.flatMap(([field, text]) => scanText(text, field));
}
