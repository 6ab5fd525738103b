import { InvalidParamsError } from "@patchbay/jsonrpc-core";

/** One page of a list, and the cursor of the next page when there is one. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

/** Default number of items per page of `tools/list`, `resources/list`, `prompts/list`, ... */
export const DEFAULT_PAGE_SIZE = 100;

const CURSOR_PREFIX = "pb1:";

/**
 * Encodes a position in a list as an opaque cursor. Clients must not parse cursors (MCP
 * "Pagination"); the prefix only lets us tell our own cursors from foreign text.
 */
export function encodeCursor(offset: number): string {
  return btoa(`${CURSOR_PREFIX}${offset}`).replace(/=+$/, "");
}

/** Reads a cursor made by `encodeCursor`; throws -32602 for anything else (MCP "Pagination"). */
export function decodeCursor(cursor: string): number {
  let text: string;
  try {
    text = atob(cursor);
  } catch {
    throw invalidCursor(cursor);
  }
  if (!text.startsWith(CURSOR_PREFIX)) throw invalidCursor(cursor);
  const digits = text.slice(CURSOR_PREFIX.length);
  if (!/^(0|[1-9][0-9]{0,15})$/.test(digits)) throw invalidCursor(cursor);
  return Number(digits);
}

/**
 * Cuts one page out of a list. `cursor` undefined means the first page; a cursor past the end
 * gives an empty last page (the list may have shrunk since the cursor was made).
 */
export function paginate<T>(
  items: readonly T[],
  cursor: string | undefined,
  pageSize: number,
): Page<T> {
  const start = cursor === undefined ? 0 : decodeCursor(cursor);
  const end = start + pageSize;
  const page = items.slice(start, end);
  return end < items.length ? { items: page, nextCursor: encodeCursor(end) } : { items: page };
}

function invalidCursor(cursor: string): InvalidParamsError {
  return new InvalidParamsError(`Invalid cursor: ${JSON.stringify(cursor)}`, { cursor });
}
