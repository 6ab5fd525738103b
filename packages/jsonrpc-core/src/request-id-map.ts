import type { JSONRPCId } from "./messages.js";

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
 * kilobyte per request, grows the old generation and costs CPU and page faults per request. The
 * dictionaries this keeps its entries in (a number's key as an array index, a string's as a
 * property) are replaced as they grow and shrink, but a replaced one links to nothing.
 *
 * Keys are compared as a `Map` compares them: `1` and `"1"` are different keys, `0` and `-0` the
 * same. Values are never `undefined` (`get` answers `undefined` for a missing key).
 */
export class RequestIdMap<V extends object> {
  #numbers: Record<number, V> = Object.create(null);
  #strings: Record<string, V> = Object.create(null);
  #null: V | undefined;
  #size = 0;

  /** How many entries it holds. */
  get size(): number {
    return this.#size;
  }

  /** The value kept under `id`, or `undefined`. */
  get(id: JSONRPCId | null): V | undefined {
    if (typeof id === "number") return this.#numbers[id];
    if (typeof id === "string") return this.#strings[id];
    return this.#null;
  }

  /** True when a value is kept under `id`. */
  has(id: JSONRPCId | null): boolean {
    return this.get(id) !== undefined;
  }

  /** Keeps `value` under `id`, replacing what was kept under it. */
  set(id: JSONRPCId | null, value: V): this {
    if (typeof id === "number") {
      if (this.#numbers[id] === undefined) this.#size += 1;
      this.#numbers[id] = value;
    } else if (typeof id === "string") {
      if (this.#strings[id] === undefined) this.#size += 1;
      this.#strings[id] = value;
    } else {
      if (this.#null === undefined) this.#size += 1;
      this.#null = value;
    }
    return this;
  }

  /** Forgets the value kept under `id`; true when there was one. */
  delete(id: JSONRPCId | null): boolean {
    if (typeof id === "number") {
      if (this.#numbers[id] === undefined) return false;
      delete this.#numbers[id];
    } else if (typeof id === "string") {
      if (this.#strings[id] === undefined) return false;
      delete this.#strings[id];
    } else {
      if (this.#null === undefined) return false;
      this.#null = undefined;
    }
    this.#size -= 1;
    return true;
  }

  /**
   * The values, as a new array: under number ids first (integers in ascending order, which is the
   * order they were sent in for ids a connection counts up), then under string ids in the order
   * they were added, then under `null`.
   */
  values(): V[] {
    const values: V[] = [];
    if (this.#size === 0) return values;
    for (const key in this.#numbers) values.push(this.#numbers[key as unknown as number] as V);
    for (const key in this.#strings) values.push(this.#strings[key] as V);
    if (this.#null !== undefined) values.push(this.#null);
    return values;
  }

  /** Forgets every entry. */
  clear(): void {
    this.#numbers = Object.create(null);
    this.#strings = Object.create(null);
    this.#null = undefined;
    this.#size = 0;
  }
}
