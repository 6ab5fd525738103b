import type { EventInput } from "@patchbay/telemetry";
import type { BackendListing } from "../catalogue/build-catalogue.js";
import type { NameCodec } from "../namespacing/qualified-name.js";
import { canonicalJson } from "./canonical-json.js";
import {
  identifierOf,
  type PinKind,
  pinHash,
  pinnedDefinition,
  withPinnedFields,
} from "./pin-definition.js";
import { describePinChange } from "./pin-diff.js";
import {
  approvePins,
  EMPTY_PIN_SNAPSHOT,
  entryKey,
  type PinEntry,
  type PinRecord,
  type PinSelector,
  type PinSnapshot,
  type WithheldStatus,
  withheldEntries,
} from "./pin-snapshot.js";
import type { PinStore } from "./pin-store.js";
import type { ResolvedPinsConfig } from "./pins-config.js";

/** What a `PinGuard` reads and reports to. */
export interface PinGuardOptions {
  readonly store: PinStore;
  /** The `pins` block in force (read on each use, so a reload applies). */
  readonly config: () => ResolvedPinsConfig;
  /** The name codec in force (pin names are exposed names). */
  readonly codec: () => NameCodec;
  /** One line per withheld change (the app logs it as a warning). */
  readonly warn: (message: string) => void;
  readonly record?: (event: EventInput) => void;
}

/** One withheld definition as `gateway_status`, `pins list` and the proxy's `GET /pins` show it. */
export interface WithheldPin {
  readonly backend: string;
  readonly kind: PinKind;
  readonly name: string;
  readonly status: WithheldStatus;
  readonly pinned_hash: string | null;
  readonly new_hash: string;
  readonly changed_fields: readonly string[];
  readonly diff: string;
}

/** Every pin, withheld or not. */
export interface PinListing {
  readonly backend: string;
  readonly kind: PinKind;
  readonly name: string;
  readonly status: "pinned" | WithheldStatus;
  readonly hash: string | null;
}

const LIST_FIELDS: readonly [PinKind, "tools" | "prompts" | "resourceTemplates"][] = [
  ["tool", "tools"],
  ["prompt", "prompts"],
  ["resourceTemplate", "resourceTemplates"],
];

/**
 * The name a pin is known by: the exposed name of a tool or prompt (`<namespace><separator><name>`);
 * for a resource template, its URI template after the same prefix (the namespace, or the backend's
 * key when that is `""`).
 */
export function pinNameOf(
  kind: PinKind,
  listing: Pick<BackendListing, "backend" | "namespace">,
  identifier: string,
  codec: NameCodec,
): string {
  if (kind !== "resourceTemplate") return codec.format(listing.namespace, identifier);
  const prefix = listing.namespace === "" ? listing.backend : listing.namespace;
  return `${prefix}${codec.separator}${identifier}`;
}

/** A withheld entry as shown: which fields changed and how. */
export function describeWithheld(backend: string, entry: PinEntry): WithheldPin | undefined {
  const pending = entry.pending;
  if (pending === undefined) return undefined;
  const change = describePinChange(entry.pinned?.definition ?? {}, pending.definition);
  return {
    backend,
    kind: entry.kind,
    name: entry.name,
    status: pending.status,
    pinned_hash: entry.pinned?.hash ?? null,
    new_hash: pending.hash,
    changed_fields: change.fields,
    diff: change.diff,
  };
}

/** A router's pins, as the apps use them (`router.pins`). */
export interface RouterPins {
  /** Approves withheld definitions (each becomes the pin and is served); returns the pin names approved. */
  approve(selector: PinSelector): Promise<string[]>;
  /** The withheld definitions of the given backends (all when absent), with their diffs. */
  withheld(backends?: ReadonlySet<string>): WithheldPin[];
  /** Every pin and withheld definition. */
  list(): PinListing[];
  /** Reads the pin store again (changed outside the router: `pins approve`, another replica). */
  load(): Promise<void>;
  /** Waits until every change so far is saved to the store. */
  flushed(): Promise<void>;
}

/**
 * Pins what backends publish and withholds what changed: each listing passes `vet` before any
 * catalogue sees it. An item seen first is pinned (trust on first use) or, with that off, served
 * only when its hash is shipped in the config; a changed one is withheld (its pinned definition
 * served with `onChange: "keep"`, nothing with `"hide"`) until `approve`.
 */
export class PinGuard implements RouterPins {
  readonly #options: PinGuardOptions;
  #snapshot: PinSnapshot = EMPTY_PIN_SNAPSHOT;
  #generation = 0;
  #saving: Promise<void> = Promise.resolve();
  #firstLoad: Promise<void> | undefined;
  /** The `pins` block the memoized listings were vetted under. */
  #configKey = "";
  #lastSaved = canonicalJson(EMPTY_PIN_SNAPSHOT);
  readonly #memo = new WeakMap<BackendListing, { generation: number; vetted: BackendListing }>();
  readonly #listeners = new Set<() => void>();

  constructor(options: PinGuardOptions) {
    this.#options = options;
  }

  /** `call`, made to wait until the store was first read (the first call reads it). */
  afterLoad<Args extends unknown[], Result>(
    call: (...args: Args) => Result | Promise<Result>,
  ): (...args: Args) => Promise<Result> {
    return async (...args) => {
      // A store that could not be read is read again at the next try (a backend's restart).
      this.#firstLoad ??= this.load().catch((error: unknown) => {
        this.#firstLoad = undefined;
        throw error;
      });
      await this.#firstLoad;
      return await call(...args);
    };
  }

  /** Reads the store (first before any backend connects, and again when it changed elsewhere). */
  async load(): Promise<void> {
    await this.#saving;
    const loaded = (await this.#options.store.load()) ?? EMPTY_PIN_SNAPSHOT;
    const text = canonicalJson(loaded);
    if (text === this.#lastSaved) return;
    this.#lastSaved = text;
    // Another replica pinning what it listed first changes nothing served here: only a changed
    // pin or withheld state of an entry this guard holds (an approval elsewhere) is announced.
    this.#replace(loaded, servesDifferently(this.#snapshot, loaded));
  }

  /** The pins now. */
  snapshot(): PinSnapshot {
    return this.#snapshot;
  }

  /** Calls `listener` when what is served may have changed (an approval, a new store content). */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Approves withheld definitions; returns the pin names approved. */
  async approve(selector: PinSelector): Promise<string[]> {
    const { snapshot, approved } = approvePins(this.#snapshot, selector);
    if (approved.length === 0) return approved;
    this.#replace(snapshot);
    await this.#persist();
    return approved;
  }

  /** The withheld definitions of the given backends (all when absent), with their diffs. */
  withheld(backends?: ReadonlySet<string>): WithheldPin[] {
    return withheldEntries(this.#snapshot).flatMap(({ backend, entry }) => {
      if (backends !== undefined && !backends.has(backend)) return [];
      const shown = describeWithheld(backend, entry);
      return shown === undefined ? [] : [shown];
    });
  }

  /** Every pin and withheld definition. */
  list(): PinListing[] {
    return Object.entries(this.#snapshot.backends).flatMap(([backend, entries]) =>
      Object.values(entries).map((entry) => ({
        backend,
        kind: entry.kind,
        name: entry.name,
        status: entry.pending?.status ?? "pinned",
        hash: entry.pinned?.hash ?? null,
      })),
    );
  }

  /** The listing as clients may see it: pinned items, and changed ones withheld. */
  vet(listing: BackendListing): BackendListing {
    // A reload that changed the `pins` block (onChange, pinned) vets every listing again.
    const configKey = canonicalJson(this.#options.config());
    if (configKey !== this.#configKey) {
      this.#configKey = configKey;
      this.#generation += 1;
    }
    const memo = this.#memo.get(listing);
    if (memo !== undefined && memo.generation === this.#generation) return memo.vetted;
    const before = this.#snapshot;
    let vetted: BackendListing = listing;
    for (const [kind, field] of LIST_FIELDS) {
      const items = listing[field] as readonly Record<string, unknown>[] | undefined;
      if (items === undefined) continue;
      const kept = items.flatMap((item) => {
        const served = this.#vetItem(kind, listing, item);
        return served === undefined ? [] : [served];
      });
      vetted = { ...vetted, [field]: kept };
    }
    this.#memo.set(listing, { generation: this.#generation, vetted });
    if (this.#snapshot !== before) this.#persist().catch(() => {});
    return vetted;
  }

  /** Waits until every change so far is saved. */
  async flushed(): Promise<void> {
    await this.#saving;
  }

  #vetItem(
    kind: PinKind,
    listing: BackendListing,
    item: Record<string, unknown>,
  ): Record<string, unknown> | undefined {
    const identifier = identifierOf(kind, item);
    const key = entryKey(kind, identifier);
    const definition = pinnedDefinition(kind, item);
    const hash = pinHash(definition);
    const entry = this.#entryOf(listing.backend, key);
    const name = pinNameOf(kind, listing, identifier, this.#options.codec());
    const pinned = entry?.pinned;
    if (pinned?.hash === hash) {
      if (entry?.pending !== undefined) this.#set(listing.backend, key, { kind, name, pinned });
      return item;
    }
    const config = this.#options.config();
    if (pinned === undefined) {
      // Own keys only: a tool named "constructor" must not find Object.prototype's.
      const shipped = Object.hasOwn(config.pinned, name) ? config.pinned[name] : undefined;
      if (shipped === undefined ? config.trustOnFirstUse : shipped === hash) {
        this.#set(listing.backend, key, { kind, name, pinned: { hash, definition } });
        return item;
      }
    }
    const status: WithheldStatus = pinned === undefined ? "unpinned" : "changed";
    this.#withhold(
      listing.backend,
      key,
      { kind, name, ...(pinned ? { pinned } : {}) },
      {
        hash,
        definition,
        status,
      },
    );
    return pinned !== undefined && config.onChange === "keep"
      ? withPinnedFields(kind, item, pinned.definition)
      : undefined;
  }

  #withhold(
    backend: string,
    key: string,
    entry: PinEntry,
    pending: PinRecord & { status: WithheldStatus },
  ): void {
    const known = this.#entryOf(backend, key)?.pending;
    if (known?.hash === pending.hash && known.status === pending.status) return;
    const next: PinEntry = { ...entry, pending };
    this.#set(backend, key, next);
    const shown = describeWithheld(backend, next);
    const fields = shown?.changed_fields.join(", ") ?? "";
    const { onChange } = this.#options.config();
    this.#options.warn(
      pending.status === "changed"
        ? `pins: ${entry.kind} "${entry.name}" of backend "${backend}" changed (${fields}); withheld until approved (onChange: ${onChange})`
        : `pins: ${entry.kind} "${entry.name}" of backend "${backend}" is not pinned; withheld until approved`,
    );
    this.#options.record?.({
      event_type: "pins.withheld",
      status: "failure",
      backend,
      data: {
        kind: entry.kind,
        name: entry.name,
        status: pending.status,
        changed_fields: shown?.changed_fields ?? [],
      },
    });
  }

  #entryOf(backend: string, key: string): PinEntry | undefined {
    const { backends } = this.#snapshot;
    const entries = Object.hasOwn(backends, backend) ? backends[backend] : undefined;
    return entries !== undefined && Object.hasOwn(entries, key) ? entries[key] : undefined;
  }

  #set(backend: string, key: string, entry: PinEntry): void {
    const entries = {
      ...(Object.hasOwn(this.#snapshot.backends, backend) ? this.#snapshot.backends[backend] : {}),
      [key]: entry,
    };
    this.#snapshot = {
      version: 1,
      backends: { ...this.#snapshot.backends, [backend]: entries },
    };
  }

  #replace(snapshot: PinSnapshot, announce = true): void {
    this.#snapshot = snapshot;
    this.#generation += 1;
    if (announce) for (const listener of this.#listeners) listener();
  }

  #persist(): Promise<void> {
    this.#saving = this.#saving.then(async () => {
      const snapshot = this.#snapshot;
      const text = canonicalJson(snapshot);
      if (text === this.#lastSaved) return;
      await this.#options.store.save(snapshot);
      this.#lastSaved = text;
    });
    // A failed save is reported, and the next change tries again.
    this.#saving = this.#saving.catch((error: unknown) => {
      this.#options.warn(`pins: saving the pins failed: ${String(error)}`);
    });
    return this.#saving;
  }
}

/** Whether an entry of `current` is gone from `next`, or has another pin or withheld state there. */
function servesDifferently(current: PinSnapshot, next: PinSnapshot): boolean {
  for (const [backend, entries] of Object.entries(current.backends)) {
    const others = Object.hasOwn(next.backends, backend) ? next.backends[backend] : undefined;
    for (const [key, entry] of Object.entries(entries)) {
      const other = others !== undefined && Object.hasOwn(others, key) ? others[key] : undefined;
      if (
        other === undefined ||
        other.pinned?.hash !== entry.pinned?.hash ||
        other.pending?.hash !== entry.pending?.hash ||
        other.pending?.status !== entry.pending?.status
      ) {
        return true;
      }
    }
  }
  return false;
}
