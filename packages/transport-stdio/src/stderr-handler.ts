import { createLineDecoder, type LineDecoder } from "@patchbay/jsonrpc-core";

/** Longest stderr line kept, in bytes; a longer one is replaced by a short note. */
export const MAX_STDERR_LINE_BYTES = 64 * 1024;

/**
 * The default stderr handler: writes each line to the parent's stderr prefixed with the server's
 * name, so the output of many servers stays readable in one log.
 */
export function createPrefixedStderrHandler(
  name: string,
  write: (text: string) => void = (text) => {
    process.stderr.write(text);
  },
): (line: string) => void {
  return (line) => write(`[${name}] ${line}\n`);
}

/** Splits a child's stderr into lines for `onLine`; an overlong line becomes a note, not a crash. */
export function createStderrLineSplitter(onLine: (line: string) => void): LineDecoder {
  return createLineDecoder({
    maxLineBytes: MAX_STDERR_LINE_BYTES,
    onLine,
    onError: () => onLine(`(a stderr line longer than ${MAX_STDERR_LINE_BYTES} bytes was dropped)`),
  });
}
