import type { TelemetryEvent } from "./event.js";
import type { EventSink } from "./event-sink.js";

/** The few file operations the sink needs; `node:fs/promises` fits, and tests may pass their own. */
export interface SinkFileSystem {
  /** Appends UTF-8 text, creating the file when missing. */
  appendFile(path: string, text: string): Promise<void>;
  /** Renames a file, replacing the target. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file; a missing file is not an error (`force`). */
  rm(path: string, options: { force: true }): Promise<void>;
  /** Size of a file in bytes (rejects when missing). */
  stat(path: string): Promise<{ size: number }>;
}

/** Options of {@link createJsonLinesFileSink}. */
export interface JsonLinesFileSinkOptions {
  /** The active file; rotated files are `<path>.1` (newest) to `<path>.<maxFiles>` (oldest). */
  readonly path: string;
  /** Size in bytes past which the active file is rotated (default 10 MiB). */
  readonly maxBytes?: number;
  /** Rotated files kept besides the active one (default 5; 0 keeps none). */
  readonly maxFiles?: number;
  /** File operations (default: `node:fs/promises`, loaded on first write). */
  readonly fileSystem?: SinkFileSystem;
}

const encoder = new TextEncoder();

function toLine(event: TelemetryEvent): string {
  try {
    return `${JSON.stringify(event)}\n`;
  } catch {
    // Values JSON cannot carry (a BigInt, say) must not lose the whole event.
    return `${JSON.stringify({ ...event, data: { unserializable: true } })}\n`;
  }
}

/**
 * An {@link EventSink} that appends one JSON object per line to a file and rotates it by size.
 * The only Node-facing part of the package: `node:fs/promises` is imported lazily, so the rest runs
 * anywhere. Wrap it with `createQueuedSink` (as `createTelemetry` does) so writes never block.
 */
export function createJsonLinesFileSink(options: JsonLinesFileSinkOptions): EventSink {
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const maxFiles = options.maxFiles ?? 5;
  if (!Number.isInteger(maxBytes) || maxBytes < 1)
    throw new RangeError("maxBytes must be a positive integer");
  if (!Number.isInteger(maxFiles) || maxFiles < 0)
    throw new RangeError("maxFiles must be a non-negative integer");
  const path = options.path;
  let fileSystem = options.fileSystem;
  // -1 until the active file's size has been read.
  let size = -1;

  const open = async (): Promise<SinkFileSystem> => {
    fileSystem ??= (await import("node:fs/promises")) as SinkFileSystem;
    if (size < 0) {
      size = await fileSystem.stat(path).then(
        (stats) => stats.size,
        () => 0,
      );
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
    async write(events) {
      const files = await open();
      let chunk = "";
      let chunkBytes = 0;
      for (const event of events) {
        const line = toLine(event);
        const bytes = encoder.encode(line).length;
        if (size + chunkBytes + bytes > maxBytes && size + chunkBytes > 0) {
          if (chunk !== "") await files.appendFile(path, chunk);
          size += chunkBytes;
          chunk = "";
          chunkBytes = 0;
          await rotate(files);
        }
        chunk += line;
        chunkBytes += bytes;
      }
      if (chunk !== "") {
        await files.appendFile(path, chunk);
        size += chunkBytes;
      }
    },
  };
}
