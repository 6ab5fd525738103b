import type { AuditSink } from "./audit-log.js";
import { createJsonLinesFile, type JsonLinesFileSinkOptions } from "./json-lines-file-sink.js";

/**
 * An {@link AuditSink} appending one JSON line per record to a file rotated by size (renamed to
 * `<path>.1` … `<path>.<maxFiles>`); a record is never split or lost across a rotation.
 */
export function createAuditFileSink(options: JsonLinesFileSinkOptions): AuditSink {
  const file = createJsonLinesFile(options);
  return { write: (records) => file.append(records) };
}
