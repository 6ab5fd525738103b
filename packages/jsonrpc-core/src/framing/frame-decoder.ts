import { decode } from "../codec/decode.js";
import { decodeKeepingResult, type LineBytes } from "../codec/decode-keeping-result.js";
import { ErrorCode } from "../errors/error-code.js";
import { InvalidFrameError, LineTooLongError } from "../errors/transport-errors.js";
import type { Frame } from "../messages.js";
import type { FrameInfo } from "../transport.js";
import {
  createLineSplitter,
  DEFAULT_MAX_LINE_BYTES,
  type DroppedLine,
  type LineDecoder,
} from "./line-decoder.js";
import { sniffEnvelope } from "./sniff-envelope.js";

/** Options of {@link createFrameDecoder}. */
export interface FrameDecoderOptions {
  /** Longest line accepted, in UTF-8 bytes. Default 64 MiB. */
  maxLineBytes?: number;
  /** Receives each valid frame; `info.rejected` lists the -32600 responses owed for a batch. */
  onFrame(frame: Frame, info: FrameInfo): void;
  /**
   * Receives an {@link InvalidFrameError} for each line that is not JSON-RPC (send its `response`
   * back) and a `LineTooLongError` for each overlong line, carrying the message's id and kind when
   * they could be read from the ends of the line. Decoding goes on with the next line.
   */
  onError(error: Error): void;
  /**
   * For relays (a gateway): a success response on a line of 64 KiB or more keeps the text of its
   * `result`, and encoding that same result again (`encode`, `encodeLine`, `encodeLinePieces`)
   * writes the text as it came instead of serializing the result, unless the result was changed
   * in place since. The text stays in memory as long as the result does. Default false.
   */
  relayLargeResults?: boolean;
}

/** Lines from which {@link FrameDecoderOptions.relayLargeResults} keeps a result's text. */
export const RELAY_MIN_CHARS = 64 * 1024;

/**
 * Newline-delimited JSON-RPC: splits a stream into lines and decodes each into a frame, the way
 * stdio transports read. A bad line is reported and skipped; the stream is never lost.
 */
export function createFrameDecoder(options: FrameDecoderOptions): LineDecoder {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const textDecoder = new TextDecoder();
  const relay = options.relayLargeResults === true;
  return createLineSplitter({
    maxLineBytes,
    onLine(text: string, bytes?: LineBytes) {
      const result =
        relay && text.length >= RELAY_MIN_CHARS ? decodeKeepingResult(text, bytes) : decode(text);
      if (!result.ok) {
        const reason =
          result.response.error.code === ErrorCode.ParseError ? "not JSON" : "not JSON-RPC";
        options.onError(
          new InvalidFrameError(`Received a line that is ${reason}`, result.response),
        );
        return;
      }
      options.onFrame(
        result.frame,
        result.rejected.length > 0 ? { rejected: result.rejected } : {},
      );
    },
    onDroppedLine(line: DroppedLine) {
      const hint = sniffEnvelope(textDecoder.decode(line.head), textDecoder.decode(line.tail));
      options.onError(new LineTooLongError(maxLineBytes, { lineBytes: line.lineBytes, ...hint }));
    },
  });
}
