/** Ids for `info` values that have no JSON form (cycles, BigInt): their object identity. */
const opaqueIds = new WeakMap<object, string>();
let nextOpaqueId = 0;
/** The last identity made from JSON, handed out again while callers keep coming with the same. */
let lastJsonIdentity = "";

/**
 * The identity a session is bound to: the hook's `identity`, else one derived from its `info`
 * (the string itself, or JSON with sorted keys); `undefined` when neither says who the caller is.
 */
export function identityOf(identity: string | undefined, info: unknown): string | undefined {
  if (identity !== undefined) return `id:${identity}`;
  if (info === undefined || info === null) return undefined;
  if (typeof info === "string") return `id:${info}`;
  // A frozen `info` (a gateway hands out one per token) says the same every time: its identity is
  // made once, not serialized with sorted keys per request.
  if (typeof info === "object" && Object.isFrozen(info)) {
    let frozen = frozenIdentities.get(info);
    if (frozen === undefined) {
      frozen = jsonIdentity(info);
      frozenIdentities.set(info, frozen);
    }
    return frozen;
  }
  return jsonIdentity(info);
}

/** Identities of frozen `info` objects, made once each. */
const frozenIdentities = new WeakMap<object, string>();

/** The identity of an `info` that is neither a string nor absent: its JSON, else its object. */
function jsonIdentity(info: unknown): string {
  try {
    const key = `json:${JSON.stringify(info, sortedKeys)}`;
    // Sessions of one caller share one string (each session keeps its identity).
    if (key !== lastJsonIdentity) lastJsonIdentity = key;
    return lastJsonIdentity;
  } catch {
    if (info === null || (typeof info !== "object" && typeof info !== "function"))
      return `value:${String(info)}`;
    let id = opaqueIds.get(info);
    if (id === undefined) {
      nextOpaqueId += 1;
      id = `opaque:${nextOpaqueId}`;
      opaqueIds.set(info, id);
    }
    return id;
  }
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}
