import type { TelemetryEvent } from "./event.js";
import type { EventSink } from "./event-sink.js";

/** The few file operations the sink needs; `node:fs/promises` fits, and tests may pass their own. */
export interface SinkFileSystem {
  /** Appends UTF-8 text, creating the file with `mode` when missing. */
  appendFile(path: string, text: string, options: { mode: number }): Promise<void>;
  /** Sets a file's permission bits. */
  chmod(path: string, mode: number): Promise<void>;
  /** Renames a file, replacing the target. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file; a missing file is not an error (`force`). */
  rm(path: string, options: { force: true }): Promise<void>;
  /** Size and permission bits of a file (rejects when missing). */
  stat(path: string): Promise<{ size: number; mode: number }>;
}

/** Options of {@link createJsonLinesFileSink}. */
export interface JsonLinesFileSinkOptions {
  /** The active file; rotated files are `<path>.1` (newest) to `<path>.<maxFiles>` (oldest). */
  readonly path: string;
  /** Size in bytes past which the active file is rotated (default 10 MiB). */
  readonly maxBytes?: number;
  /** Rotated files kept besides the active one (default 5; 0 keeps none). */
  readonly maxFiles?: number;
  /**
   * Permission bits of the files (default `0o600`: events may name backends, tools and errors, which
   * only the operator should read). An existing file with wider bits is narrowed on first write.
   */
  readonly mode?: number;
  /** File operations (default: `node:fs/promises`, loaded on first write). */
  readonly fileSystem?: SinkFileSystem;
}

const encoder = new TextEncoder();

function toLine(record: object): string {
  try {
    return `${JSON.stringify(record)}\n`;
  } catch {
    // Values JSON cannot carry (a BigInt, say) must not lose the whole record.
    return `${JSON.stringify({ ...record, data: { unserializable: true } })}\n`;
  }
}

/** A JSON Lines file rotated by size (see {@link createJsonLinesFile}). */
export interface JsonLinesFile {
  /**
   * Appends one line per record, oldest first, rotating between lines when the file would pass
   * `maxBytes`: every line before the rotation is in the rotated file, every line after in the new.
   * Calls must not overlap (put the file behind a queue).
   */
  append(records: readonly object[]): Promise<void>;
}

/**
 * An {@link EventSink} that appends one JSON object per line to a file and rotates it by size.
 * The only Node-facing part of the package: `node:fs/promises` is imported lazily, so the rest runs
 * anywhere. Wrap it with `createQueuedSink` (as `createTelemetry` does) so writes never block.
 */
export function createJsonLinesFileSink(options: JsonLinesFileSinkOptions): EventSink {
  const file = createJsonLinesFile(options);
  return { write: (events: readonly TelemetryEvent[]) => file.append(events) };
}

/**
 * A file of one JSON object per line, rotated by renaming (`<path>` to `<path>.1` and so on) past
 * `maxBytes`; the events file sink and the audit log write through it.
 */
export function createJsonLinesFile(options: JsonLinesFileSinkOptions): JsonLinesFile {
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const maxFiles = options.maxFiles ?? 5;
  if (!Number.isInteger(maxBytes) || maxBytes < 1)
    throw new RangeError("maxBytes must be a positive integer");
  if (!Number.isInteger(maxFiles) || maxFiles < 0)
    throw new RangeError("maxFiles must be a non-negative integer");
  const path = options.path;
  const mode = options.mode ?? 0o600;
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o777)
    throw new RangeError("mode must be permission bits from 0o000 to 0o777");
  let fileSystem = options.fileSystem;
  // -1 until the active file's size has been read.
  let size = -1;

  const open = async (): Promise<SinkFileSystem> => {
    fileSystem ??= (await import("node:fs/promises")) as SinkFileSystem;
    if (size < 0) {
      const stats = await fileSystem.stat(path).catch(() => undefined);
      size = stats?.size ?? 0;
      // A file left by an older version (or created by hand) may be readable by others.
      if (stats !== undefined && (stats.mode & 0o777 & ~mode) !== 0) {
        await fileSystem.chmod(path, mode);
      }
    }
    return fileSystem;
  };

  const rotate = async (files: SinkFileSystem): Promise<void> => {
    if (maxFiles === 0) {
      await files.rm(path, { force: true });
    } else {
      await files.rm(`${path}.${maxFiles}`, { force: true });
      for (let index = maxFiles - 1; index >= 1; index -= 1) {
        await files.rename(`${path}.${index}`, `${path}.${index + 1}`).catch(() => undefined);
      }
      await files.rename(path, `${path}.1`);
    }
    size = 0;
  };

  return {
    async append(records) {
      const files = await open();
      let chunk = "";
      let chunkBytes = 0;
      for (const record of records) {
        const line = toLine(record);
        const bytes = encoder.encode(line).length;
        if (size + chunkBytes + bytes > maxBytes && size + chunkBytes > 0) {
          if (chunk !== "") await files.appendFile(path, chunk, { mode });
          size += chunkBytes;
          chunk = "";
          chunkBytes = 0;
          await rotate(files);
        }
        chunk += line;
        chunkBytes += bytes;
      }
      if (chunk !== "") {
        await files.appendFile(path, chunk, { mode });
        size += chunkBytes;
      }
    },
  };
}
