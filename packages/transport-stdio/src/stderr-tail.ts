/** Lines of a child's stderr kept for its exit details. */
export const STDERR_TAIL_LINES = 5;
/** Characters kept of each of those lines; a longer one is cut and ends with `…`. */
export const STDERR_TAIL_LINE_CHARS = 240;

/** The last few lines a child wrote to stderr, each cut to a bounded length. */
export class StderrTail {
  readonly #lines: string[] = [];

  push(line: string): void {
    const kept =
      line.length > STDERR_TAIL_LINE_CHARS ? `${line.slice(0, STDERR_TAIL_LINE_CHARS)}…` : line;
    this.#lines.push(kept);
    if (this.#lines.length > STDERR_TAIL_LINES) this.#lines.shift();
  }

  /** The kept lines, oldest first (a copy). */
  get lines(): readonly string[] {
    return [...this.#lines];
  }
}
