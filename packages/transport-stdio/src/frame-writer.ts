import type { Writable } from "node:stream";
import { encodeLinePieces, type Frame, TransportError } from "@patchbay/jsonrpc-core";

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
