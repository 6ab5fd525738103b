/// <reference types="node" />
// Node only: the proxy's per-principal credentials, encrypted in a file (AES-256-GCM).
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { CredentialStoreError } from "./credentials-key.js";

/** One stored value's place: whose, for which backend, in which slot (never the value). */
export interface CredentialEntry {
  readonly principal: string;
  readonly backend: string;
  readonly slot: string;
}

/** The credential store's values in memory, decrypted. */
export interface CredentialStore {
  /** The values of `backend`'s slots stored for `principal` (slot -> value), if any. */
  valuesFor(principal: string, backend: string): Readonly<Record<string, string>> | undefined;
  /** Every stored value's place, sorted (principals, backends, slots; never values). */
  list(): CredentialEntry[];
  /** Every stored value, for a log's masking only. */
  secretValues(): string[];
}

/** A value sealed with AES-256-GCM: its nonce, tag and ciphertext, each base64. */
export interface SealedValue {
  readonly nonce: string;
  readonly tag: string;
  readonly data: string;
}

interface StoreFile {
  readonly version: 1;
  /** A fixed text sealed with the key: a wrong key is refused even when no value is stored. */
  readonly check: SealedValue;
  readonly values: readonly (CredentialEntry & SealedValue)[];
}

const CHECK_TEXT = "patchbay-credentials";
const CHECK_CONTEXT = "check";

/**
 * Reads the store at `path` with `key`: a missing file is an empty store; a file that does not
 * parse, was sealed with another key or was changed by hand is refused (`CredentialStoreError`).
 */
export function readCredentialStore(path: string, key: Buffer): CredentialStore {
  const values = new Map<string, Record<string, string>>();
  for (const entry of readSealed(path, key)?.values ?? []) {
    const place = placeKey(entry.principal, entry.backend);
    const slots = values.get(place) ?? {};
    slots[entry.slot] = open(entry, key, contextOf(entry), path);
    values.set(place, slots);
  }
  return {
    valuesFor: (principal, backend) => values.get(placeKey(principal, backend)),
    secretValues: () => [...values.values()].flatMap((slots) => Object.values(slots)),
    list: () =>
      [...values]
        .flatMap(([place, slots]) => {
          const [principal = "", backend = ""] = place.split("\u0000");
          return Object.keys(slots).map((slot) => ({ principal, backend, slot }));
        })
        .sort(compareEntries),
  };
}

/** Stores `value` in `entry`'s place (replacing one there), sealed with a fresh nonce. */
export function setCredential(
  path: string,
  key: Buffer,
  entry: CredentialEntry,
  value: string,
): void {
  const current = readSealed(path, key);
  const others = (current?.values ?? []).filter((stored) => !samePlace(stored, entry));
  const sealed = { ...pick(entry), ...seal(value, key, contextOf(entry)) };
  writeSealed(path, {
    version: 1,
    check: current?.check ?? seal(CHECK_TEXT, key, CHECK_CONTEXT),
    values: [...others, sealed],
  });
}

/**
 * Replaces every value of `principal` for `backend` with `values` (slot -> value; none deletes
 * them), in one write, each sealed with a fresh nonce.
 */
export function replaceCredentials(
  path: string,
  key: Buffer,
  place: { readonly principal: string; readonly backend: string },
  values: Readonly<Record<string, string>>,
): void {
  const current = readSealed(path, key);
  const others = (current?.values ?? []).filter(
    (stored) => stored.principal !== place.principal || stored.backend !== place.backend,
  );
  const sealed = Object.entries(values).map(([slot, value]) => {
    const entry = { principal: place.principal, backend: place.backend, slot };
    return { ...entry, ...seal(value, key, contextOf(entry)) };
  });
  writeSealed(path, {
    version: 1,
    check: current?.check ?? seal(CHECK_TEXT, key, CHECK_CONTEXT),
    values: [...others, ...sealed],
  });
}

/**
 * Deletes the values of `principal` for `backend` (only `slot`'s when given); returns how many
 * were deleted.
 */
export function deleteCredentials(
  path: string,
  key: Buffer,
  place: { readonly principal: string; readonly backend: string; readonly slot?: string },
): number {
  const current = readSealed(path, key);
  if (current === undefined) return 0;
  const kept = current.values.filter(
    (stored) =>
      stored.principal !== place.principal ||
      stored.backend !== place.backend ||
      (place.slot !== undefined && stored.slot !== place.slot),
  );
  const deleted = current.values.length - kept.length;
  if (deleted > 0) writeSealed(path, { ...current, values: kept });
  return deleted;
}

/**
 * Seals `value` of `entry`'s place as the file does (bound to its principal, backend and slot):
 * for another place to keep the store's values (the replicas' Redis).
 */
export function sealCredential(value: string, key: Buffer, entry: CredentialEntry): SealedValue {
  return seal(value, key, contextOf(entry));
}

/** The value sealed in `sealed` for `entry`'s place; `CredentialStoreError` naming `where` if not. */
export function openCredential(
  sealed: SealedValue,
  key: Buffer,
  entry: CredentialEntry,
  where: string,
): string {
  return open(sealed, key, contextOf(entry), where);
}

/** The fixed text sealed with `key`: a store that keeps it refuses another key. */
export function sealStoreCheck(key: Buffer): SealedValue {
  return seal(CHECK_TEXT, key, CHECK_CONTEXT);
}

/** True when `sealed` is the check text sealed with `key`. */
export function opensStoreCheck(sealed: SealedValue, key: Buffer): boolean {
  try {
    return open(sealed, key, CHECK_CONTEXT, "") === CHECK_TEXT;
  } catch {
    return false;
  }
}

/**
 * Seals `value` for `context` (any text it is bound to: opened for another, it fails), with a fresh
 * nonce: for what the proxy keeps beside the store (connect links and sign-ins, in Redis).
 */
export function sealWithKey(value: string, key: Buffer, context: string): SealedValue {
  return seal(value, key, `other:${context}`);
}

/** What {@link sealWithKey} sealed for `context`, or `undefined` when it does not open. */
export function openWithKey(sealed: SealedValue, key: Buffer, context: string): string | undefined {
  try {
    return open(sealed, key, `other:${context}`, "");
  } catch {
    return undefined;
  }
}

/** The file at `path`, its key checked; `undefined` when there is none yet. */
function readSealed(path: string, key: Buffer): StoreFile | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new CredentialStoreError(
      `cannot read the credential store ${path}: ${(error as Error).message}`,
    );
  }
  let file: StoreFile;
  try {
    file = JSON.parse(text) as StoreFile;
  } catch {
    throw new CredentialStoreError(
      `the credential store ${path} is not JSON: restore it or delete it and set the values again`,
    );
  }
  if (file?.version !== 1 || !Array.isArray(file.values) || typeof file.check !== "object") {
    throw new CredentialStoreError(`the credential store ${path} has an unknown format`);
  }
  let check: string | undefined;
  try {
    check = open(file.check, key, CHECK_CONTEXT, path);
  } catch {
    check = undefined;
  }
  if (check !== CHECK_TEXT) {
    throw new CredentialStoreError(
      `the credential store ${path} was sealed with another key: set the key it was written with`,
    );
  }
  return file;
}

/** Writes the store whole: a new file of mode 0600 renamed over the old one (never half written). */
function writeSealed(path: string, file: StoreFile): void {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const descriptor = openSync(temporary, "wx", 0o600);
    try {
      writeSync(descriptor, `${JSON.stringify(file, null, 2)}\n`);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CredentialStoreError(
      `cannot write the credential store ${path}: ${(error as Error).message}`,
    );
  }
}

function seal(value: string, key: Buffer, context: string): SealedValue {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const data = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return {
    nonce: nonce.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    data: data.toString("base64"),
  };
}

/** The value sealed in `sealed`; a wrong key or a changed byte is refused. */
function open(sealed: SealedValue, key: Buffer, context: string, path: string): string {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.nonce, "base64"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed.data, "base64")),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    throw new CredentialStoreError(
      `the credential store ${path} cannot be opened: a value was changed or moved since it was written`,
    );
  }
}

/** What a value is bound to: moved to another principal, backend or slot, it no longer opens. */
function contextOf(entry: CredentialEntry): string {
  return JSON.stringify([entry.principal, entry.backend, entry.slot]);
}

function pick(entry: CredentialEntry): CredentialEntry {
  return { principal: entry.principal, backend: entry.backend, slot: entry.slot };
}

function samePlace(a: CredentialEntry, b: CredentialEntry): boolean {
  return a.principal === b.principal && a.backend === b.backend && a.slot === b.slot;
}

function placeKey(principal: string, backend: string): string {
  return `${principal}\u0000${backend}`;
}

function compareEntries(a: CredentialEntry, b: CredentialEntry): number {
  return (
    a.principal.localeCompare(b.principal) ||
    a.backend.localeCompare(b.backend) ||
    a.slot.localeCompare(b.slot)
  );
}
