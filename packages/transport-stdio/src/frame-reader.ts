import type { Readable } from "node:stream";
import {
  createFrameDecoder,
  type Frame,
  type FrameInfo,
  type LineDecoder,
} from "@patchbay/jsonrpc-core";

/** What a {@link FrameReader} reports. */
export interface FrameReaderHandlers {
  /** Each decoded frame, in arrival order. */
  onFrame(frame: Frame, info: FrameInfo): void;
  /** InvalidFrameError for a line that is not JSON-RPC, LineTooLongError for an overlong line. */
  onError(error: Error): void;
  /** The stream ended (after the last line was decoded) or failed. */
  onEnd(error?: Error): void;
}

/** How a {@link FrameReader} decodes (see jsonrpc-core's `createFrameDecoder`). */
export interface FrameReaderOptions {
  readonly maxLineBytes?: number | undefined;
  readonly relayLargeResults?: boolean | undefined;
}

/**
 * Reads newline-delimited JSON-RPC from a stream with jsonrpc-core's frame decoder. Bad lines are
 * reported and skipped; the reader keeps going until the stream ends.
 */
export class FrameReader {
  readonly #input: Readable;
  readonly #handlers: FrameReaderHandlers;
  readonly #decoder: LineDecoder;
  #attached = false;
  #ended = false;

  /** `maxLineBytes` defaults to jsonrpc-core's (64 MiB); `relayLargeResults` to false. */
  constructor(
    input: Readable,
    handlers: FrameReaderHandlers,
    { maxLineBytes, relayLargeResults }: FrameReaderOptions = {},
  ) {
    this.#input = input;
    this.#handlers = handlers;
    this.#decoder = createFrameDecoder({
      ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
      relayLargeResults: relayLargeResults === true,
      onFrame: (frame, info) => {
        if (this.#attached) handlers.onFrame(frame, info);
      },
      onError: (error) => {
        if (this.#attached) handlers.onError(error);
      },
    });
  }

  /** Starts reading (flowing mode). */
  attach(): void {
    if (this.#attached || this.#ended) return;
    this.#attached = true;
    this.#input.on("data", this.#onData);
    this.#input.on("end", this.#onEnd);
    this.#input.on("error", this.#onError);
    // A stream that ended before anyone read it will not emit 'end' again.
    if (this.#input.readableEnded) queueMicrotask(this.#onEnd);
    else this.#input.resume();
  }

  /** Stops reading and forgets the stream; nothing is reported afterwards. */
  detach(): void {
    if (!this.#attached) return;
    this.#attached = false;
    this.#input.off("data", this.#onData);
    this.#input.off("end", this.#onEnd);
    this.#input.off("error", this.#onError);
    // An error after detaching must not become an uncaught exception.
    this.#input.on("error", ignore);
    this.#input.pause();
  }

  readonly #onData = (chunk: Uint8Array | string) => {
    this.#decoder.push(chunk);
  };

  readonly #onEnd = () => {
    if (this.#ended) return;
    this.#ended = true;
    this.#decoder.end();
    if (this.#attached) this.#handlers.onEnd();
  };

  readonly #onError = (error: Error) => {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#attached) this.#handlers.onEnd(error);
  };
}

function ignore(): void {}
