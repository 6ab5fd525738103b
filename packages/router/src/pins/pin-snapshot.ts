import type { PinKind } from "./pin-definition.js";

/** A definition and its hash. */
export interface PinRecord {
  readonly hash: string;
  readonly definition: Readonly<Record<string, unknown>>;
}

/**
 * Why a definition is withheld: `changed` (it differs from the approved pin) or `unpinned` (with
 * `trustOnFirstUse: false`, nobody approved it yet).
 */
export type WithheldStatus = "changed" | "unpinned";

/** One item's pin: the approved definition, and a newer one withheld until approved. */
export interface PinEntry {
  readonly kind: PinKind;
  /** Its pin name: the exposed name (`<namespace><separator><name>`; a template's URI template in place of the name). */
  readonly name: string;
  readonly pinned?: PinRecord;
  readonly pending?: PinRecord & { readonly status: WithheldStatus };
}

/** Every pin: per backend key, per `<kind>:<identifier>`. What a `PinStore` keeps. */
export interface PinSnapshot {
  readonly version: 1;
  readonly backends: Readonly<Record<string, Readonly<Record<string, PinEntry>>>>;
}

/** No pins yet. */
export const EMPTY_PIN_SNAPSHOT: PinSnapshot = { version: 1, backends: {} };

/** Which withheld definitions to approve: one by pin name, or every one of a backend. */
export type PinSelector =
  | { readonly name: string }
  | { readonly backend: string; readonly all: true };

/**
 * The selector of an approval request's JSON body (`{"tool": "<exposed name>"}` or
 * `{"backend": "<name>", "all": true}`), as the proxy's `POST /pins/approve` and the dashboard take
 * it; undefined for anything else.
 */
export function parsePinSelector(text: string): PinSelector | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const { tool, backend, all } = body as Record<string, unknown>;
  if (typeof tool === "string" && backend === undefined && all === undefined) return { name: tool };
  if (typeof backend === "string" && all === true && tool === undefined) {
    return { backend, all: true };
  }
  return undefined;
}

/** The key of an entry within its backend. */
export function entryKey(kind: PinKind, identifier: string): string {
  return `${kind}:${identifier}`;
}

/**
 * The snapshot with the withheld definitions `selector` names approved (each becomes the pin), and
 * the pin names approved; none when nothing withheld matches.
 */
export function approvePins(
  snapshot: PinSnapshot,
  selector: PinSelector,
): { snapshot: PinSnapshot; approved: string[] } {
  const approved: string[] = [];
  const backends: Record<string, Record<string, PinEntry>> = {};
  for (const [backend, entries] of Object.entries(snapshot.backends)) {
    const next: Record<string, PinEntry> = {};
    for (const [key, entry] of Object.entries(entries)) {
      const selected =
        "name" in selector ? entry.name === selector.name : backend === selector.backend;
      if (selected && entry.pending !== undefined) {
        const { hash, definition } = entry.pending;
        next[key] = { kind: entry.kind, name: entry.name, pinned: { hash, definition } };
        approved.push(entry.name);
      } else next[key] = entry;
    }
    backends[backend] = next;
  }
  return { snapshot: { version: 1, backends }, approved };
}

/** Every withheld entry, with its backend. */
export function withheldEntries(
  snapshot: PinSnapshot,
): { backend: string; entry: PinEntry & Required<Pick<PinEntry, "pending">> }[] {
  return Object.entries(snapshot.backends).flatMap(([backend, entries]) =>
    Object.values(entries).flatMap((entry) =>
      entry.pending === undefined ? [] : [{ backend, entry: { ...entry, pending: entry.pending } }],
    ),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads a snapshot from parsed JSON; throws on anything that is not one. */
export function readPinSnapshot(value: unknown): PinSnapshot {
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.backends)) {
    throw new Error('not a pin file: expected {"version": 1, "backends": {...}}');
  }
  for (const [backend, entries] of Object.entries(value.backends)) {
    if (!isRecord(entries)) throw new Error(`not a pin file: backends.${backend} is not an object`);
    for (const [key, entry] of Object.entries(entries)) {
      if (!isRecord(entry) || typeof entry.name !== "string" || typeof entry.kind !== "string") {
        throw new Error(`not a pin file: backends.${backend}.${key} has no name and kind`);
      }
    }
  }
  return value as unknown as PinSnapshot;
}
