/// <reference types="node" />
// Node only: this entry reads and writes files (the router itself needs no Node API).
import { randomBytes } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import {
  approvePins,
  type PinSelector,
  type PinSnapshot,
  readPinSnapshot,
} from "../pins/pin-snapshot.js";
import type { PinStore } from "../pins/pin-store.js";
import type { PinsConfig } from "../pins/pins-config.js";

/**
 * The pin file of a config file: `pins.file` (relative to the config file's directory), else
 * `<config file>.pins.json` beside it.
 */
export function pinFileOf(configPath: string, pins: PinsConfig | undefined): string {
  const file = pins?.file;
  return file === undefined ? `${configPath}.pins.json` : resolve(dirname(configPath), file);
}

/** Reads a pin file; `undefined` when it does not exist yet. Throws naming the file when it is not one. */
export async function readPinFile(path: string): Promise<PinSnapshot | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    return readPinSnapshot(JSON.parse(text));
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** Writes a pin file atomically: a temporary file beside it, renamed over it. */
export async function writePinFile(path: string, snapshot: PinSnapshot): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(snapshot, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** A pin store in a JSON file (written atomically). */
export function createFilePinStore(path: string): PinStore {
  return {
    load: () => readPinFile(path),
    save: (snapshot) => writePinFile(path, snapshot),
  };
}

/**
 * Approves withheld definitions in a pin file (what `patchbay-gateway pins approve` does); a
 * running gateway watching the file serves them. Returns the pin names approved.
 */
export async function approvePinFile(
  path: string,
  selector: PinSelector | { readonly all: true },
): Promise<string[]> {
  const snapshot = await readPinFile(path);
  if (snapshot === undefined) return [];
  const selectors: PinSelector[] =
    "name" in selector || "backend" in selector
      ? [selector]
      : Object.keys(snapshot.backends).map((backend) => ({ backend, all: true }));
  let next = snapshot;
  const approved: string[] = [];
  for (const each of selectors) {
    const result = approvePins(next, each);
    next = result.snapshot;
    approved.push(...result.approved);
  }
  if (approved.length > 0) await writePinFile(path, next);
  return approved;
}
