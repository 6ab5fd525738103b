/// <reference types="node" />
// Node only: this entry reads and watches files (the router itself needs no Node API).
import { watch } from "node:fs";
import { basename, dirname } from "node:path";

/** Options of {@link watchConfigFile}. */
export interface WatchConfigFileOptions {
  /** Changes closer together than this are one change (editors write in steps). Default 100 ms. */
  readonly debounceMs?: number;
  /** The directory cannot be watched (removed, or no more watches left). */
  readonly onError?: (error: Error) => void;
}

/** A running watch; `close()` stops it and drops a change not yet reported. */
export interface ConfigFileWatch {
  close(): void;
}

/**
 * Calls `onChange` after the file at `path` changes, once per burst of changes. The directory is
 * watched, not the file: editors often save by writing a new file and renaming it over the old one,
 * which a watch on the file itself would not survive. Changes are reported one after another: the
 * next `onChange` starts only when the previous one has settled.
 */
export function watchConfigFile(
  path: string,
  onChange: () => Promise<void> | void,
  options: WatchConfigFileOptions = {},
): ConfigFileWatch {
  const debounceMs = options.debounceMs ?? 100;
  const file = basename(path);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;
  const watcher = watch(dirname(path), (_event, changed) => {
    if (changed !== null && changed !== file) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(async () => {
        if (!closed) await onChange();
      });
    }, debounceMs);
  });
  watcher.on("error", (error) => options.onError?.(error));
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      watcher.close();
    },
  };
}
