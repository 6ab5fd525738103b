/** Where a config file's text stops being valid, counted from 1 as editors count. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** The line and column of the character at `index` of `text`. */
export function positionAt(text: string, index: number): TextPosition {
  const before = text.slice(0, index);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: index - lineStart + 1 };
}

/**
 * The index of the first character at which `text` stops being JSON (its length when it ends too
 * early), or undefined when it is JSON. For the errors `JSON.parse` reports without a position.
 */
export function jsonErrorIndex(text: string): number | undefined {
  const scanner = new JsonScanner(text);
  try {
    scanner.value();
    scanner.space();
    return scanner.index < text.length ? scanner.index : undefined;
  } catch (error) {
    if (error instanceof JsonStop) return error.index;
    throw error;
  }
}

class JsonStop {
  constructor(readonly index: number) {}
}

const literals = ["true", "false", "null"];
const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const escapePattern = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** A recursive-descent reader that only checks JSON's grammar and stops where it breaks. */
class JsonScanner {
  index = 0;

  constructor(readonly text: string) {}

  space(): void {
    while (/[ \t\n\r]/.test(this.text[this.index] ?? "")) this.index++;
  }

  value(): void {
    this.space();
    const character = this.text[this.index];
    if (character === "{") this.members("}", () => this.member());
    else if (character === "[") this.members("]", () => this.value());
    else if (character === '"') this.string();
    else if (character === "-" || /\d/.test(character ?? "")) this.match(numberPattern);
    else this.literal();
  }

  member(): void {
    this.space();
    this.string();
    this.space();
    this.expect(":");
    this.value();
  }

  /** `{…}` or `[…]`: items separated by commas, possibly none. */
  members(close: string, item: () => void): void {
    this.index++;
    this.space();
    if (this.text[this.index] === close) {
      this.index++;
      return;
    }
    for (;;) {
      item();
      this.space();
      if (this.text[this.index] === close) break;
      this.expect(",");
    }
    this.index++;
  }

  string(): void {
    this.expect('"');
    for (;;) {
      const character = this.text[this.index];
      if (character === '"') break;
      if (character === "\\") this.match(escapePattern);
      // The end of the text, or a control character (JSON strings must escape them).
      else if (character === undefined || character < " ") throw new JsonStop(this.index);
      else this.index++;
    }
    this.index++;
  }

  literal(): void {
    const word = literals.find((candidate) => candidate[0] === this.text[this.index]);
    if (word === undefined) throw new JsonStop(this.index);
    for (const expected of word) this.expect(expected);
  }

  expect(character: string): void {
    if (this.text[this.index] !== character) throw new JsonStop(this.index);
    this.index++;
  }

  match(pattern: RegExp): void {
    pattern.lastIndex = this.index;
    if (!pattern.test(this.text)) throw new JsonStop(this.index);
    this.index = pattern.lastIndex;
  }
}
