/** What a registration call returns: the entry's key and a way to take it back out. */
export interface Registration {
  /** The key the entry was registered under (a tool or prompt name, a URI, a URI template). */
  readonly key: string;
  /** Removes the entry, if it is still the one registered under its key; harmless twice. */
  remove(): void;
}

/**
 * An ordered collection of named entries that reports every change, so the server can send the
 * matching `list_changed` notification. Listing order is registration order (MCP 2026-07-28 asks
 * for a deterministic `tools/list`).
 */
export class Registry<T> {
  readonly #entries = new Map<string, T>();
  readonly #listeners = new Set<() => void>();
  readonly #kind: string;

  /** `kind` names the entries in error messages ("tool", "prompt", ...). */
  constructor(kind: string) {
    this.#kind = kind;
  }

  /** Adds an entry; throws a `TypeError` when the key is taken. */
  add(key: string, entry: T): Registration {
    if (this.#entries.has(key)) {
      throw new TypeError(`A ${this.#kind} named ${JSON.stringify(key)} is already registered`);
    }
    this.#entries.set(key, entry);
    this.#emit();
    return {
      key,
      remove: () => {
        if (this.#entries.get(key) !== entry) return;
        this.#entries.delete(key);
        this.#emit();
      },
    };
  }

  /** The entry under the key, if any. */
  get(key: string): T | undefined {
    return this.#entries.get(key);
  }

  /** Every entry, in registration order. */
  values(): T[] {
    return [...this.#entries.values()];
  }

  /** Number of entries. */
  get size(): number {
    return this.#entries.size;
  }

  /** Subscribes to additions and removals; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #emit(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
