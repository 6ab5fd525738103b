import type { Readable, Writable } from "node:stream";
import {
  type Frame,
  type FrameInfo,
  type SendOptions,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  TransportEvents,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import { FrameReader, FrameWriter, withRelatedRequest } from "./stdio-framing.js";

/** Options of {@link createStdioServerTransport}. */
export interface StdioServerTransportOptions {
  /** Where frames come from; default `process.stdin`. Its end closes the transport. */
  readonly input?: Readable;
  /** Where frames go, one line each; default `process.stdout`. Nothing else may write to it. */
  readonly output?: Writable;
  /** Longest line accepted, in UTF-8 bytes; longer lines are reported and skipped. Default 64 MiB. */
  readonly maxLineBytes?: number;
}

/**
 * The server side of the stdio transport: newline-delimited JSON-RPC read from stdin and written to
 * stdout (or the given streams). The end of the input closes the transport (`remote`); closing it
 * ends the output, so the client sees end-of-file.
 */
export function createStdioServerTransport(options: StdioServerTransportOptions = {}): Transport {
  return new StdioServerTransport(options);
}

class StdioServerTransport implements Transport {
  readonly #output: Writable;
  readonly #reader: FrameReader;
  readonly #writer: FrameWriter;
  readonly #events = new TransportEvents();
  #started = false;
  #closed = false;

  constructor(options: StdioServerTransportOptions) {
    const input = options.input ?? process.stdin;
    this.#output = options.output ?? process.stdout;
    this.#reader = new FrameReader(
      input,
      {
        onFrame: (frame, info) => this.#events.emitFrame(frame, info),
        onError: (error) => this.#events.emitError(error),
        onEnd: (error) =>
          error === undefined
            ? this.#end({ initiator: "remote" })
            : this.#fail(
                new TransportError(`Cannot read stdin: ${error.message}`, { cause: error }),
              ),
      },
      { maxLineBytes: options.maxLineBytes },
    );
    this.#writer = new FrameWriter(this.#output, () => "stdout");
    this.#output.on("error", this.#onOutputError);
  }

  async start(): Promise<void> {
    if (this.#started || this.#closed) return;
    this.#started = true;
    this.#events.start();
    this.#reader.attach();
  }

  send(frame: Frame, options?: SendOptions): Promise<void> {
    if (this.#closed) {
      return Promise.reject(new TransportError("Cannot send: the stdio transport is closed"));
    }
    return this.#writer.send(withRelatedRequest(frame, options?.relatedRequestId));
  }

  async close(): Promise<void> {
    this.#end({ initiator: "local" });
  }

  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    return this.#events.onFrame(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.#events.onError(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.#events.onClose(listener);
  }

  readonly #onOutputError = (error: Error) => {
    this.#fail(this.#writer.fail(this.#writer.writeError(error)));
  };

  #fail(error: TransportError): void {
    if (this.#closed) return;
    this.#events.emitError(error);
    this.#end({ initiator: "error", error });
  }

  #end(event: TransportCloseEvent): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reader.detach();
    // Frames already queued still go out; then the client sees end-of-file.
    this.#writer.end();
    this.#events.emitClose(event);
  }
}
