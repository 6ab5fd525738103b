import { SHORT_HASH_LENGTH, shortHash } from "./short-hash.js";

/** The separator between a namespace and a name unless configured otherwise. */
export const DEFAULT_NAMESPACE_SEPARATOR = "__";

/** The longest exposed name unless configured otherwise: the limit of the major model APIs. */
export const DEFAULT_NAME_LENGTH_BUDGET = 64;

/** The characters MCP allows in a tool name (2025-11-25 tool-name guidance: 1 to 128 of them). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

const toolNameCharacter = /^[A-Za-z0-9_.-]*$/;
const invalidToolNameCharacters = /[^A-Za-z0-9_.-]/g;

/** The smallest length budget that still leaves room for a readable prefix beside the hash. */
export const MINIMUM_NAME_LENGTH_BUDGET = SHORT_HASH_LENGTH + 9;

/** How tool and prompt names are namespaced. */
export interface NameCodecOptions {
  /** Between namespace and name; `__` by default. `:` is accepted with a warning. */
  readonly separator?: string;
  /** Longest exposed name, 64 by default; longer names are shortened and mapped back. */
  readonly maxLength?: number;
}

/** A namespace and a name as the backend spells it. */
export interface QualifiedName {
  readonly namespace: string;
  readonly name: string;
}

/** Formats and parses namespaced names; remembers the shortened ones so they map back. */
export interface NameCodec {
  /** The separator in use. */
  readonly separator: string;
  /** The length budget in use. */
  readonly maxLength: number;
  /** Problems worth a log line that did not stop the codec (for example a `:` separator). */
  readonly warnings: readonly string[];
  /**
   * The exposed name of `name` in `namespace`: `namespace + separator + name`, or `name` alone when
   * the namespace is `""`. A result that would break the length budget or the MCP tool-name alphabet
   * is shortened deterministically (valid characters, truncated, plus a stable hash).
   */
  format(namespace: string, name: string): string;
  /** The namespace and name an exposed name stands for, or `undefined` if it stands for none. */
  parse(exposedName: string): QualifiedName | undefined;
  /** True when `format` had to shorten or clean the name, so only `parse` of this codec maps it back. */
  isShortened(exposedName: string): boolean;
}

/** Why a separator or name budget cannot be used: string code, as local errors have. */
export class NamespaceOptionsError extends Error {
  /** Always `INVALID_NAMESPACE_OPTIONS`. */
  readonly code = "INVALID_NAMESPACE_OPTIONS";
  constructor(message: string) {
    super(message);
    this.name = "NamespaceOptionsError";
  }
}

/**
 * Checks a separator: `:` is accepted with a warning (older gateways use it, but it is outside the
 * MCP tool-name alphabet); anything else must be non-empty and inside `[A-Za-z0-9_.-]`.
 * Returns the warnings; throws `NamespaceOptionsError` for an unusable separator.
 */
export function checkNamespaceSeparator(separator: string): string[] {
  if (separator === ":") {
    return [
      'Namespace separator ":" is outside the MCP tool-name alphabet [A-Za-z0-9_.-]; some clients reject such names. Prefer "__".',
    ];
  }
  if (separator.length === 0 || !toolNameCharacter.test(separator)) {
    throw new NamespaceOptionsError(
      `Namespace separator ${JSON.stringify(separator)} must be ":" or 1 or more characters of [A-Za-z0-9_.-].`,
    );
  }
  return [];
}

/**
 * Checks a namespace for a separator: it must not contain the separator (so the first separator
 * in an exposed name ends the namespace) and must be inside the tool-name alphabet.
 * Returns a message describing the problem, or `undefined` when the namespace is fine.
 */
export function describeNamespaceProblem(namespace: string, separator: string): string | undefined {
  if (namespace === "") return undefined;
  if (!toolNameCharacter.test(namespace)) {
    return `namespace ${JSON.stringify(namespace)} may only contain [A-Za-z0-9_.-]`;
  }
  // The first separator in `namespace + separator + name` must be the one we put there, or
  // parse would split too early (for example namespace "a_" with separator "__").
  if (`${namespace}${separator}`.indexOf(separator) !== namespace.length) {
    return `namespace ${JSON.stringify(namespace)} must not contain or end with part of the separator ${JSON.stringify(separator)}`;
  }
  return undefined;
}

/** Creates a codec for namespaced tool and prompt names. */
export function createNameCodec(options: NameCodecOptions = {}): NameCodec {
  const separator = options.separator ?? DEFAULT_NAMESPACE_SEPARATOR;
  const maxLength = options.maxLength ?? DEFAULT_NAME_LENGTH_BUDGET;
  const warnings = checkNamespaceSeparator(separator);
  if (!Number.isInteger(maxLength) || maxLength < MINIMUM_NAME_LENGTH_BUDGET || maxLength > 128) {
    throw new NamespaceOptionsError(
      `Name length budget must be an integer from ${MINIMUM_NAME_LENGTH_BUDGET} to 128, got ${maxLength}.`,
    );
  }
  const shortened = new Map<string, QualifiedName>();

  function format(namespace: string, name: string): string {
    const joined = namespace === "" ? name : `${namespace}${separator}${name}`;
    const clean = toolNameCharacter.test(namespace) && toolNameCharacter.test(name);
    if (clean && joined.length > 0 && joined.length <= maxLength) return joined;
    const hash = shortHash(`${namespace}\u0000${name}`);
    const keep = maxLength - SHORT_HASH_LENGTH - 1;
    const exposed = `${joined.replace(invalidToolNameCharacters, "_").slice(0, keep)}_${hash}`;
    shortened.set(exposed, { namespace, name });
    return exposed;
  }

  function parse(exposedName: string): QualifiedName | undefined {
    const remembered = shortened.get(exposedName);
    if (remembered) return remembered;
    if (exposedName.length === 0) return undefined;
    const at = exposedName.indexOf(separator);
    if (at < 0) return { namespace: "", name: exposedName };
    return {
      namespace: exposedName.slice(0, at),
      name: exposedName.slice(at + separator.length),
    };
  }

  return {
    separator,
    maxLength,
    warnings,
    format,
    parse,
    isShortened: (exposedName) => shortened.has(exposedName),
  };
}
