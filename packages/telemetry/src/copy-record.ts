/**
 * A shallow copy of a plain object's own enumerable properties (symbols too), to which the caller
 * then adds or replaces properties. Much faster in V8 than a spread followed by more properties
 * (`{ ...source, key }`), which takes a slow path for every added property. `Object.assign` differs
 * from a spread only for an own `__proto__` key (JSON.parse makes one): it would set the copy's
 * prototype, so such an object is spread instead.
 */
export function copyRecord(source: object): Record<string, unknown> {
  return Object.hasOwn(source, "__proto__")
    ? { ...(source as Record<string, unknown>) }
    : Object.assign({}, source as Record<string, unknown>);
}
