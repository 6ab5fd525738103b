import { parse as parseYaml } from "yaml";
import type { ConfigBlocks, NoConfigBlocks } from "./config-blocks.js";
import { GatewayConfigError } from "./gateway-config-error.js";
import { jsonErrorIndex, positionAt } from "./json-error-position.js";
import {
  type ParsedGatewayConfig,
  type ParseGatewayConfigOptions,
  parseGatewayConfig,
} from "./parse-gateway-config.js";

/** How a config file is written. */
export type ConfigTextFormat = "json" | "yaml";

/** The format a file name implies: YAML for `.yaml`/`.yml`, else JSON (comments allowed). */
export function configFormatOf(fileName: string): ConfigTextFormat {
  return /\.ya?ml$/i.test(fileName) ? "yaml" : "json";
}

/**
 * Parses the text of a config file (JSON, JSON with comments and trailing commas as VS Code writes
 * it, or YAML) and validates it with `parseGatewayConfig`. Throws `GatewayConfigError`.
 */
export function parseConfigText<Blocks extends ConfigBlocks = NoConfigBlocks>(
  text: string,
  format: ConfigTextFormat,
  options: ParseGatewayConfigOptions<Blocks> = {},
): ParsedGatewayConfig<Blocks> {
  let value: unknown;
  try {
    value = format === "yaml" ? parseYaml(text) : JSON.parse(stripJsonComments(text));
  } catch (error) {
    const reason = (error as Error).message;
    const message =
      format === "yaml" ? `not valid YAML: ${reason}` : describeJsonError(reason, text);
    throw new GatewayConfigError([{ path: "", message }], options.source, { cause: error });
  }
  return parseGatewayConfig(value, options);
}

/**
 * `not valid JSON at line 3, column 5: Expected ',' or '}' after property value`: where the text
 * breaks by line and column (JSON.parse tells a character position, or nothing).
 */
function describeJsonError(reason: string, text: string): string {
  const stated = /at position (\d+)/.exec(reason)?.[1];
  const index = stated === undefined ? jsonErrorIndex(stripJsonComments(text)) : Number(stated);
  const what = reason
    .replace(/ (?:in JSON )?at position \d+.*$/s, "")
    .replace(/, .* is not valid JSON$/s, "");
  if (index === undefined) return `not valid JSON: ${what}`;
  const { line, column } = positionAt(text, index);
  return `not valid JSON at line ${line}, column ${column}: ${what}`;
}

/**
 * Blanks out `//` and `/* *\/` comments and trailing commas outside strings (JSONC) with spaces,
 * keeping every other character where it was, so that a position JSON.parse reports in the result
 * is the same position in `text`.
 */
export function stripJsonComments(text: string): string {
  let output = "";
  let index = 0;
  while (index < text.length) {
    const character = text[index] as string;
    if (character === '"') {
      const end = endOfString(text, index);
      output += text.slice(index, end);
      index = end;
    } else if (character === "/" && text[index + 1] === "/") {
      const end = text.indexOf("\n", index);
      const comment = text.slice(index, end === -1 ? text.length : end);
      output += " ".repeat(comment.length);
      index += comment.length;
    } else if (character === "/" && text[index + 1] === "*") {
      const end = text.indexOf("*/", index + 2);
      const comment = text.slice(index, end === -1 ? text.length : end + 2);
      output += comment.replace(/[^\n]/g, " ");
      index += comment.length;
    } else {
      output += character;
      index++;
    }
  }
  // A comma followed only by whitespace before `}` or `]` (strings are intact, so this is safe
  // only outside them: rebuild again skipping strings).
  return removeTrailingCommas(output);
}

function endOfString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    if (text[index] === "\\") index += 2;
    else if (text[index] === '"') return index + 1;
    else index++;
  }
  return index;
}

function removeTrailingCommas(text: string): string {
  let output = "";
  let index = 0;
  while (index < text.length) {
    const character = text[index] as string;
    if (character === '"') {
      const end = endOfString(text, index);
      output += text.slice(index, end);
      index = end;
      continue;
    }
    if (character === ",") {
      let next = index + 1;
      while (next < text.length && /\s/.test(text[next] as string)) next++;
      if (text[next] === "}" || text[next] === "]") {
        output += " ";
        index++;
        continue;
      }
    }
    output += character;
    index++;
  }
  return output;
}
