import { createFrameDecoder } from "../framing/line-decoder.js";

/** A response's result as a relay decodes it, and the chunks its line arrived in. */
export interface RelayedResult {
  readonly result: unknown;
  readonly chunks: readonly Uint8Array[];
}

/** Options of {@link decodeRelayedResult}. */
export interface DecodeRelayedResultOptions {
  /** The response's id (default 1). */
  readonly id?: number;
  /** Bytes per chunk fed to the decoder (default 16 KiB, as a pipe delivers them). */
  readonly chunkBytes?: number;
  /** Encodes the line (default `TextEncoder`; in Node, `Buffer.from` gives the chunks a pipe gives). */
  readonly encode?: (line: string) => Uint8Array;
}

/**
 * Decodes the response line `{"jsonrpc":"2.0","id":<id>,"result":<resultText>}` with
 * `relayLargeResults`, chunk by chunk: from a line of 64 KiB or more the result comes back with its
 * text kept, as a relay (the gateway, the proxy) receives it from a stdio backend.
 */
export function decodeRelayedResult(
  resultText: string,
  options: DecodeRelayedResultOptions = {},
): RelayedResult {
  const { id = 1, chunkBytes = 16 * 1024 } = options;
  const encode = options.encode ?? ((line: string) => new TextEncoder().encode(line));
  const bytes = encode(`{"jsonrpc":"2.0","id":${id},"result":${resultText}}\n`);
  const chunks: Uint8Array[] = [];
  let result: unknown;
  const decoder = createFrameDecoder({
    relayLargeResults: true,
    onFrame: (frame) => {
      result = (frame as { result: unknown }).result;
    },
    onError: (error) => {
      throw error;
    },
  });
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    const chunk = bytes.subarray(at, at + chunkBytes);
    chunks.push(chunk);
    decoder.push(chunk);
  }
  return { result, chunks };
}
