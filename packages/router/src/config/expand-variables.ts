/** An environment: variable names to values (`process.env` fits). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A `${VAR}` that had no value and no default, with where it was. */
export interface MissingVariable {
  /** Path of the value in the file, such as `mcpServers.github.env.TOKEN`. */
  readonly path: string;
  readonly variable: string;
}

const reference = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in one string. `$${VAR}` stays literally `${VAR}`.
 * A `${VAR}` whose variable is unset (with no default) is reported through `onMissing` and
 * replaced by "". `${VAR:-default}` uses the default when the variable is unset or empty, as in
 * POSIX shells.
 */
export function expandString(
  text: string,
  environment: Environment,
  onMissing: (variable: string) => void = () => {},
  onExpanded: (value: string) => void = () => {},
): string {
  return text.replace(reference, (match, escaped: string, name: string, fallback?: string) => {
    if (escaped === "$") return match.slice(1);
    const value = environment[name];
    if (fallback !== undefined && (value === undefined || value === "")) return fallback;
    if (value === undefined) {
      onMissing(name);
      return "";
    }
    onExpanded(value);
    return value;
  });
}

/**
 * Expands variables in every string value of a parsed config (object keys are left alone).
 * Returns the expanded copy, every reference that had no value, and `secrets`: every non-empty value
 * that came from the environment (a `${VAR}` may carry a token, so none of them is ever shown;
 * defaults written in the file are not included).
 */
export function expandVariables(
  value: unknown,
  environment: Environment,
): { value: unknown; missing: MissingVariable[]; secrets: string[] } {
  const missing: MissingVariable[] = [];
  const secrets = new Set<string>();
  const onExpanded = (expanded: string) => {
    if (expanded !== "") secrets.add(expanded);
  };
  const walk = (node: unknown, path: string): unknown => {
    if (typeof node === "string") {
      return expandString(
        node,
        environment,
        (variable) => missing.push({ path, variable }),
        onExpanded,
      );
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, `${path}[${index}]`));
    if (typeof node === "object" && node !== null) {
      return Object.fromEntries(
        Object.entries(node).map(([key, item]) => [key, walk(item, joinPath(path, key))]),
      );
    }
    return node;
  };
  return { value: walk(value, ""), missing, secrets: [...secrets] };
}

/** Joins a config path and a key the way error messages show it (`a.b`, `a["odd key"]`). */
export function joinPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  const plain = /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key);
  if (!plain) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}
