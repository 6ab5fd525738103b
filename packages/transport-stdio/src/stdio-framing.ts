import type { Readable, Writable } from "node:stream";
import {
  createFrameDecoder,
  encodeLinePieces,
  type Frame,
  type FrameInfo,
  type JSONRPCId,
  type LineDecoder,
  TransportError,
} from "@patchbay/jsonrpc-core";

/**
 * Frames over stdio: newline-delimited JSON-RPC read from a stream ({@link FrameReader}) and written
 * to one ({@link FrameWriter}), and the relation of a message to the request it belongs to, which
 * only `_meta` can carry on a line ({@link withRelatedRequest}, {@link readRelatedRequest}).
 */

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

interface PendingWrite {
  /** The line, or a relayed large result's line in pieces written one after the other. */
  readonly line: string | readonly (string | Uint8Array)[];
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** Lines written together in one `write()` at most (larger lines go alone). */
const MAX_BATCH_CHARS = 256 * 1024;

/**
 * Writes frames as lines to a stream, in order, honouring backpressure: once `write()` returns false,
 * later frames wait for `drain` in a queue instead of piling up in the stream's buffer. Each send
 * resolves when its line was flushed to the stream's destination.
 *
 * Writes are coalesced: the first frame of an event-loop turn is written at once (no added latency),
 * frames sent after it in the same turn go out together in one `write()` when the turn ends
 * (`setImmediate`), so a burst of answers costs one system call instead of one each.
 */
export class FrameWriter {
  readonly #output: Writable;
  readonly #describe: () => string;
  readonly #queue: PendingWrite[] = [];
  #waitingForDrain = false;
  #closeAfterQueue = false;
  #failure: TransportError | undefined;
  /** True from a write until the end of its event-loop turn: later sends wait for the batch. */
  #batchOpen = false;

  /** `describe` names the destination in error messages (for example `the stdin of "npx"`). */
  constructor(output: Writable, describe: () => string) {
    this.#output = output;
    this.#describe = describe;
    output.on("drain", this.#onDrain);
  }

  /** Queues one frame; rejects with a TransportError when the stream failed or was closed. */
  send(frame: Frame): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const line = encodeLinePieces(frame);
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ line, resolve, reject });
      if (this.#batchOpen) return;
      this.#pump();
      // The batch window opens here as in `#openBatch`, whose check a lone send has just made.
      this.#batchOpen = true;
      setImmediate(this.#flushBatch);
    });
  }

  #openBatch(): void {
    if (this.#batchOpen) return;
    this.#batchOpen = true;
    setImmediate(this.#flushBatch);
  }

  /** The end of the turn: what was sent since the first write goes out as one chunk. */
  readonly #flushBatch = () => {
    this.#batchOpen = false;
    if (this.#waitingForDrain || this.#failure !== undefined || this.#queue.length === 0) return;
    let chars = 0;
    let count = 0;
    while (count < this.#queue.length) {
      const { line } = this.#queue[count] as PendingWrite;
      // A line in pieces (a relayed large result) goes alone: batches are joined strings.
      if (typeof line !== "string") break;
      if (count > 0 && chars + line.length > MAX_BATCH_CHARS) break;
      chars += line.length;
      count++;
    }
    if (count <= 1) {
      this.#pump();
    } else {
      const batch = this.#queue.splice(0, count);
      const accepted = this.#output.write(
        batch.map((pending) => pending.line as string).join(""),
        (error) => {
          const failure = error ? this.writeError(error) : undefined;
          for (const pending of batch) {
            if (failure) pending.reject(failure);
            else pending.resolve();
          }
        },
      );
      if (!accepted) this.#waitingForDrain = true;
      this.#pump();
    }
    this.#openBatch();
  };

  /**
   * Stops writing: every queued and later send rejects with `error`. Returns the error for
   * convenience. The first failure wins.
   */
  fail(error: TransportError): TransportError {
    if (this.#failure === undefined) this.#failure = error;
    this.#output.off("drain", this.#onDrain);
    for (const pending of this.#queue.splice(0)) pending.reject(this.#failure);
    return this.#failure;
  }

  /** Ends the stream after the queued frames (used by a graceful close). */
  end(): void {
    this.#closeAfterQueue = true;
    this.#pump();
  }

  readonly #onDrain = () => {
    this.#waitingForDrain = false;
    this.#pump();
  };

  #pump(): void {
    while (!this.#waitingForDrain && this.#failure === undefined) {
      const pending = this.#queue.shift();
      if (pending === undefined) break;
      if (!this.#write(pending)) this.#waitingForDrain = true;
    }
    if (this.#closeAfterQueue && this.#queue.length === 0 && this.#failure === undefined) {
      this.#closeAfterQueue = false;
      this.fail(new TransportError(`Cannot send: ${this.#describe()} is closed`));
      if (!this.#output.writableEnded) this.#output.end();
    }
  }

  /** Writes one line (in its pieces, if any, without joining them); false once the stream is full. */
  #write(pending: PendingWrite): boolean {
    const settle = (error: Error | null | undefined) => {
      if (error) pending.reject(this.writeError(error));
      else pending.resolve();
    };
    const { line } = pending;
    if (typeof line === "string") return this.#output.write(line, settle);
    let accepted = true;
    // Corked, the pieces go out in one vectored write where the stream supports it. Callbacks run
    // in order: the last piece's says whether the whole line was written.
    this.#output.cork();
    for (let index = 0; index < line.length - 1; index++) {
      accepted = this.#output.write(line[index] as string | Uint8Array) && accepted;
    }
    accepted = this.#output.write(line[line.length - 1] as string | Uint8Array, settle) && accepted;
    this.#output.uncork();
    return accepted;
  }

  /** The TransportError for a failure of the stream, naming its destination. */
  writeError(error: Error): TransportError {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "EPIPE" || code === "ERR_STREAM_DESTROYED" || code === "ECONNRESET"
        ? "it is closed"
        : error.message;
    return new TransportError(
      `Cannot write to ${this.#describe()}: ${reason} (${code ?? error.name})`,
      {
        cause: error,
      },
    );
  }
}

/**
 * Where the stdio transport writes the relation of a server's request or notification to the client
 * request it belongs to (`Transport.send(frame, { relatedRequestId })`). Newline-delimited JSON has
 * no other place for it; Streamable HTTP carries the same relation by the POST stream it answers
 * on. A Patchbay stdio client reads it back into `FrameInfo.relatedRequestId` and removes it, so a
 * gateway can route a backend's sampling, elicitation or roots request to the client that caused
 * it. Other peers ignore an unknown `_meta` key, as MCP asks.
 */
export const RELATED_REQUEST_META_KEY = "io.patchbay/related-request-id";

type MessageWithParams = { method?: unknown; params?: Record<string, unknown> };

/** The frame to write: a request or notification gains the relation in `params._meta`. */
export function withRelatedRequest(frame: Frame, relatedRequestId: JSONRPCId | undefined): Frame {
  if (relatedRequestId === undefined || Array.isArray(frame)) return frame;
  const message = frame as MessageWithParams;
  // Progress names its call by token already; it is the most frequent related message, so it is
  // sent as it is rather than copied.
  if (typeof message.method !== "string" || message.method === "notifications/progress") {
    return frame;
  }
  const params = message.params ?? {};
  const meta = (params._meta as Record<string, unknown> | undefined) ?? {};
  return {
    ...frame,
    params: { ...params, _meta: { ...meta, [RELATED_REQUEST_META_KEY]: relatedRequestId } },
  } as Frame;
}

/**
 * The info to deliver with a received frame: the relation, when a request or notification carries
 * one (the key is removed from the message, which was parsed for this delivery alone).
 */
export function readRelatedRequest(frame: Frame, info: FrameInfo): FrameInfo {
  if (Array.isArray(frame)) return info;
  const meta = (frame as MessageWithParams).params?._meta as Record<string, unknown> | undefined;
  if (meta === undefined || !(RELATED_REQUEST_META_KEY in meta)) return info;
  const related = meta[RELATED_REQUEST_META_KEY];
  delete meta[RELATED_REQUEST_META_KEY];
  if (typeof related !== "string" && typeof related !== "number") return info;
  return { ...info, relatedRequestId: related };
}
