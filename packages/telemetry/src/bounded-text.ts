/** Longest `event_type`, `source`, `backend`, `method` or `tool` of an event, in characters. */
export const MAX_EVENT_FIELD_LENGTH = 256;

/** Longest metric label value, in characters (checked before the value is stored or cached). */
export const MAX_LABEL_VALUE_LENGTH = 128;

/** Longest string (or object key) inside an event's `data`, in characters. */
export const MAX_EVENT_DATA_STRING_LENGTH = 1024;

/** Most characters of strings and keys in one event's `data`, all together. */
export const MAX_EVENT_DATA_LENGTH = 16_384;

/** Most entries kept from one array or object inside an event's `data`. */
export const MAX_EVENT_DATA_ENTRIES = 100;

/** Most arrays and objects in one event's `data`; deeper or further ones become `[TRUNCATED]`. */
export const MAX_EVENT_DATA_NODES = 500;

/** What ends a truncated string. */
export const TRUNCATION_MARK = "…";

const truncatedNode = "[TRUNCATED]";

/** `text` when at most `max` characters long, else its first `max - 1` characters and `…`. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  return max < 1 ? "" : `${text.slice(0, max - 1)}${TRUNCATION_MARK}`;
}

/** Most entries of data that {@link boundEventData} passes through without a walk. */
const SMALL_FLAT_ENTRIES = 16;
/** Longest string or key of such data (far within every limit above, even all together). */
const SMALL_FLAT_STRING_LENGTH = 256;

/** True for a plain object of at most 16 entries, each a scalar or a string of at most 256 characters. */
function isSmallFlat(data: object): boolean {
  if (Object.getPrototypeOf(data) !== Object.prototype) return false;
  let entries = 0;
  for (const key in data) {
    entries += 1;
    if (entries > SMALL_FLAT_ENTRIES || key.length > SMALL_FLAT_STRING_LENGTH) return false;
    const value = (data as Record<string, unknown>)[key];
    if (typeof value === "string") {
      if (value.length > SMALL_FLAT_STRING_LENGTH) return false;
    } else if (value !== null && typeof value === "object") {
      return false;
    }
  }
  return true;
}

/**
 * Bounds an event's `data` to the limits above (strings, keys, entries, nodes, total characters),
 * copying only what changes, so a peer cannot make one event (or a thousand of them in the store)
 * hold megabytes. Also ends cycles. Reports whether anything was cut.
 */
export function boundEventData(data: Readonly<Record<string, unknown>>): {
  data: Readonly<Record<string, unknown>>;
  truncated: boolean;
} {
  // Most events carry a few short scalars (`direction`, `id`, `outcome`): nothing to cut or copy.
  if (isSmallFlat(data)) return { data, truncated: false };
  let characters = MAX_EVENT_DATA_LENGTH;
  let nodes = MAX_EVENT_DATA_NODES;
  let truncated = false;

  const boundString = (text: string): string => {
    const allowed = Math.max(0, Math.min(MAX_EVENT_DATA_STRING_LENGTH, characters));
    characters -= Math.min(text.length, allowed);
    if (text.length <= allowed) return text;
    truncated = true;
    return truncateText(text, allowed);
  };

  const visit = (value: unknown): unknown => {
    if (typeof value === "string") return boundString(value);
    if (value === null || typeof value !== "object") return value;
    nodes -= 1;
    if (nodes < 0) {
      truncated = true;
      return truncatedNode;
    }
    if (value instanceof Error) {
      const message = boundString(value.message);
      return message === value.message ? value : { name: value.name, message };
    }
    if (Array.isArray(value)) {
      let changed = value.length > MAX_EVENT_DATA_ENTRIES;
      if (changed) truncated = true;
      const items = value.slice(0, MAX_EVENT_DATA_ENTRIES).map((item) => {
        const bounded = visit(item);
        if (bounded !== item) changed = true;
        return bounded;
      });
      return changed ? items : value;
    }
    const keys = Object.keys(value);
    let changed = keys.length > MAX_EVENT_DATA_ENTRIES;
    if (changed) truncated = true;
    const copy: Record<string, unknown> = {};
    for (const key of keys.slice(0, MAX_EVENT_DATA_ENTRIES)) {
      const item = (value as Record<string, unknown>)[key];
      const boundedKey = boundString(key);
      const bounded = visit(item);
      if (boundedKey !== key || bounded !== item) changed = true;
      Object.defineProperty(copy, boundedKey, {
        value: bounded,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return changed ? copy : value;
  };

  const bounded = visit(data) as Readonly<Record<string, unknown>>;
  return { data: bounded, truncated };
}
