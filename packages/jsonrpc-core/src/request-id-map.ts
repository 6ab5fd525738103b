import type { JSONRPCId } from "./messages.js";

/** Slots a map starts with, and the most it grows to before it keeps a colliding id aside. */
const FIRST_SLOTS = 4;
const MAX_SLOTS = 65_536;
/**
 * Slots per entry held, at most, that a collision may grow the map to: ids a peer picks to collide
 * (0 and 65,536) cost a colliding id kept aside, not 65,536 slots for two requests.
 */
const MAX_SLOTS_PER_ENTRY = 8;
/** An empty slot's key (slot keys are integers from 0). */
const EMPTY = -1;
/**
 * The dictionaries of a map that has kept no id aside: one shared, empty and frozen (each map
 * makes its own on its first id kept aside; an idle session holds several maps).
 */
const NONE: Record<string, never> = Object.freeze(Object.create(null));

/** A {@link RequestIdMap} as the map itself writes its `size`. */
interface Counted {
  size: number;
}

/**
 * A map from JSON-RPC ids to what is in flight under them, for entries added and removed once per
 * request (pending requests, running handlers, their books), without the garbage collector
 * pathology of a long-lived `Map` used that way.
 *
 * Why not a `Map`: V8 replaces a `Map`'s hash table as entries come and go, and every replaced table
 * keeps a pointer to its successor (for iterators that were running). Once one table of a
 * long-lived map is old enough to be promoted to the old generation, each minor collection finds
 * every later table through that chain and promotes it with every value it held, until a full
 * collection breaks the chain: a gateway's map of requests in flight then promotes about a
 * kilobyte per request, grows the old generation and costs CPU and page faults per request.
 *
 * Here an integer id from 0 (what a connection counts up, and most peers send) has a slot: index
 * `id` modulo the slot count, which doubles when two ids in flight would share one (never past
 * eight slots per entry held, nor {@link MAX_SLOTS}); nothing is allocated per entry. Any other id (a string, a negative or
 * fractional number, an integer that still collides) is a property of a plain dictionary, which
 * is replaced as it grows and shrinks but links to nothing.
 *
 * Keys are compared as a `Map` compares them: `1` and `"1"` are different keys, `0` and `-0` the
 * same. Values are never `undefined` (`get` answers `undefined` for a missing key).
 */
export class RequestIdMap<V extends object> {
  #keys: number[] = new Array<number>(FIRST_SLOTS).fill(EMPTY);
  #values: (V | undefined)[] = new Array<V | undefined>(FIRST_SLOTS).fill(undefined);
  #mask = FIRST_SLOTS - 1;
  /** Number ids without a slot, under their string form (distinct for distinct numbers). */
  #numbers: Record<string, V> = NONE;
  #strings: Record<string, V> = NONE;
  #null: V | undefined;
  /**
   * How many entries it holds. A field, not a getter (readers on every request call nothing):
   * written only here, through {@link Counted}.
   */
  readonly size: number = 0;
  /** Entries in `#numbers`, `#strings` and `#null`: while 0, a missed slot is the answer. */
  #aside = 0;

  /**
   * How many slots it keeps (two arrays of this length): 4, or what it grew to, never past eight
   * per entry it held then, nor 65,536. It does not shrink until `clear`.
   */
  get slots(): number {
    return this.#keys.length;
  }

  /** The value kept under `id`, or `undefined`. */
  get(id: JSONRPCId | null): V | undefined {
    if (typeof id === "number") {
      const slot = id & this.#mask;
      if (this.#keys[slot] === id && id >= 0) return this.#values[slot];
      return this.#aside === 0 ? undefined : this.#numbers[id];
    }
    if (this.#aside === 0) return undefined;
    return typeof id === "string" ? this.#strings[id] : this.#null;
  }

  /** True when a value is kept under `id`. */
  has(id: JSONRPCId | null): boolean {
    return this.get(id) !== undefined;
  }

  /** Keeps `value` under `id`, replacing what was kept under it. */
  set(id: JSONRPCId | null, value: V): this {
    // An integer from 0 below 2^31 (what `&` keeps whole) may have a slot; the usual case inline.
    if (typeof id === "number" && (id | 0) === id && id >= 0) {
      const slot = id & this.#mask;
      const key = this.#keys[slot];
      if (key === id || (key === EMPTY && this.#aside === 0)) {
        if (key === EMPTY) (this as Counted).size += 1;
        this.#keys[slot] = id;
        this.#values[slot] = value;
        return this;
      }
      if (this.#put(id, value)) return this;
    }
    if (this.get(id) === undefined) {
      (this as Counted).size += 1;
      this.#aside += 1;
    }
    if (typeof id === "number") {
      if (this.#numbers === NONE) this.#numbers = Object.create(null);
      this.#numbers[id] = value;
    } else if (typeof id === "string") {
      if (this.#strings === NONE) this.#strings = Object.create(null);
      this.#strings[id] = value;
    } else this.#null = value;
    return this;
  }

  /**
   * Forgets the value kept under `id`; true when there was one. With `value`, only when the value
   * kept is that one (a request's own entry, not a later one under the same id).
   */
  delete(id: JSONRPCId | null, value?: V): boolean {
    if (typeof id === "number") {
      const slot = id & this.#mask;
      if (this.#keys[slot] === id && id >= 0) {
        if (value !== undefined && this.#values[slot] !== value) return false;
        this.#keys[slot] = EMPTY;
        this.#values[slot] = undefined;
        (this as Counted).size -= 1;
        return true;
      }
      if (this.#aside === 0) return false;
      const kept = this.#numbers[id];
      if (kept === undefined || (value !== undefined && kept !== value)) return false;
      delete this.#numbers[id];
    } else if (typeof id === "string") {
      if (this.#aside === 0) return false;
      const kept = this.#strings[id];
      if (kept === undefined || (value !== undefined && kept !== value)) return false;
      delete this.#strings[id];
    } else {
      if (this.#null === undefined || (value !== undefined && this.#null !== value)) return false;
      this.#null = undefined;
    }
    (this as Counted).size -= 1;
    this.#aside -= 1;
    return true;
  }

  /**
   * The values, as a new array: under number ids in ascending order of the id (for ids a
   * connection counts up, the order they were sent in), then under string ids (in the order a
   * plain object lists its keys), then under `null`.
   */
  values(): V[] {
    if (this.size === 0) return [];
    const numbered: [number, V][] = [];
    for (let slot = 0; slot < this.#keys.length; slot++) {
      const key = this.#keys[slot] as number;
      if (key !== EMPTY) numbered.push([key, this.#values[slot] as V]);
    }
    for (const key in this.#numbers) numbered.push([Number(key), this.#numbers[key] as V]);
    numbered.sort((a, b) => a[0] - b[0]);
    const values = numbered.map((entry) => entry[1]);
    for (const key in this.#strings) values.push(this.#strings[key] as V);
    if (this.#null !== undefined) values.push(this.#null);
    return values;
  }

  /** Forgets every entry. */
  clear(): void {
    this.#keys = new Array<number>(FIRST_SLOTS).fill(EMPTY);
    this.#values = new Array<V | undefined>(FIRST_SLOTS).fill(undefined);
    this.#mask = FIRST_SLOTS - 1;
    this.#numbers = NONE;
    this.#strings = NONE;
    this.#null = undefined;
    (this as Counted).size = 0;
    this.#aside = 0;
  }

  /**
   * Keeps `value` in the slot of `id` (an id with one), doubling the slots while another id holds
   * it; false when it still collides at the most slots it may have (see {@link MAX_SLOTS_PER_ENTRY}),
   * or is kept aside already (the caller keeps it aside).
   */
  #put(id: number, value: V): boolean {
    for (;;) {
      const slot = id & this.#mask;
      const key = this.#keys[slot];
      if (key === id) {
        this.#values[slot] = value;
        return true;
      }
      if (key === EMPTY) {
        // An id kept aside when its slot was taken is replaced there, not given a second entry.
        if (this.#aside > 0 && this.#numbers[id] !== undefined) return false;
        this.#keys[slot] = id;
        this.#values[slot] = value;
        (this as Counted).size += 1;
        return true;
      }
      const slots = this.#keys.length;
      if (slots >= MAX_SLOTS || 2 * slots > MAX_SLOTS_PER_ENTRY * (this.size + 1)) return false;
      this.#grow();
    }
  }

  /**
   * Doubles the slots. Ids kept in different slots stay in different slots (a larger mask keeps
   * the bits that told them apart), so every id kept moves without a collision.
   */
  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    const count = keys.length * 2;
    const mask = count - 1;
    const grownKeys = new Array<number>(count).fill(EMPTY);
    const grownValues = new Array<V | undefined>(count).fill(undefined);
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot] as number;
      if (key === EMPTY) continue;
      grownKeys[key & mask] = key;
      grownValues[key & mask] = values[slot];
    }
    this.#keys = grownKeys;
    this.#values = grownValues;
    this.#mask = mask;
  }
}
