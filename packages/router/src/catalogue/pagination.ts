/** The page size of list results unless configured otherwise. */
export const DEFAULT_PAGE_SIZE = 100;

/** One page of a list, with the cursor of the next page when there is one. */
export interface Page<Item> {
  readonly items: readonly Item[];
  readonly nextCursor?: string;
}

/** A cursor this gateway did not issue for this list. Answered as -32602 (MCP pagination). */
export class InvalidCursorError extends Error {
  /** Always `INVALID_CURSOR`. */
  readonly code = "INVALID_CURSOR";
  /** The cursor as received. */
  readonly cursor: unknown;
  constructor(cursor: unknown) {
    super(`Invalid cursor: ${JSON.stringify(cursor)}`);
    this.name = "InvalidCursorError";
    this.cursor = cursor;
  }
}

const cursorPrefix = "pb1.";

/** Encodes a position in one list as an opaque cursor. */
export function encodeCursor(list: string, offset: number): string {
  return `${cursorPrefix}${btoa(JSON.stringify([list, offset])).replace(/=+$/, "")}`;
}

/** Decodes a cursor of `list`; throws `InvalidCursorError` for anything this gateway did not issue. */
export function decodeCursor(list: string, cursor: unknown): number {
  if (typeof cursor !== "string" || !cursor.startsWith(cursorPrefix)) {
    throw new InvalidCursorError(cursor);
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(atob(cursor.slice(cursorPrefix.length)));
  } catch {
    throw new InvalidCursorError(cursor);
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 2 ||
    decoded[0] !== list ||
    !Number.isSafeInteger(decoded[1]) ||
    decoded[1] <= 0
  ) {
    throw new InvalidCursorError(cursor);
  }
  return decoded[1] as number;
}

/**
 * Serves one page of `items`. `cursor` is `undefined` for the first page. Cursors are opaque and
 * tied to `list` (a tools cursor is invalid for prompts). If the list shrank since the cursor was
 * issued, the page is simply shorter or empty.
 */
export function paginate<Item>(
  list: string,
  items: readonly Item[],
  cursor: unknown,
  pageSize: number = DEFAULT_PAGE_SIZE,
): Page<Item> {
  const offset = cursor === undefined ? 0 : decodeCursor(list, cursor);
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length
    ? { items: page, nextCursor: encodeCursor(list, end) }
    : { items: page };
}
