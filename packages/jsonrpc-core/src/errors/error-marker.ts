/**
 * Error classes carry a `Symbol.for` marker instead of relying on `instanceof`, so that an error made
 * by one installed copy of this package is recognised by another copy (duplicate installs are common
 * in monorepos and in apps that bundle several MCP libraries).
 */
const MARKER_PREFIX = "@patchbay/jsonrpc-core/";

/** The shared registry symbol for one error class name. */
export function errorMarker(className: string): symbol {
  return Symbol.for(MARKER_PREFIX + className);
}

/** True when `value` is an object that carries `marker`. */
export function hasErrorMarker(value: unknown, marker: symbol): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { [key: symbol]: unknown })[marker] === true
  );
}

/** Sets `marker` on an instance as a non-enumerable property (invisible to JSON and logs). */
export function setErrorMarker(target: object, marker: symbol): void {
  Object.defineProperty(target, marker, { value: true, enumerable: false });
}
