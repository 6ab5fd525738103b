/** One page of a paginated list result. */
export interface PageResult {
  nextCursor?: string;
  [key: string]: unknown;
}

/** Most pages `listAll*` follows before giving up on a server whose cursors never end. */
export const MAX_PAGES = 10_000;

/**
 * Follows `nextCursor` until the last page and concatenates the `key` arrays of every page
 * (MCP "Pagination": a missing `nextCursor` means the end).
 */
export async function listAllPages<Item>(
  key: string,
  fetchPage: (cursor: string | undefined) => Promise<PageResult>,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages += 1) {
    const page = await fetchPage(cursor);
    const pageItems = page[key];
    if (Array.isArray(pageItems)) items.push(...(pageItems as Item[]));
    if (page.nextCursor === undefined || page.nextCursor === null) return items;
    if (page.nextCursor === cursor)
      throw new Error(`Server repeated cursor ${cursor} while listing ${key}`);
    cursor = page.nextCursor;
  }
  throw new Error(`Server returned more than ${MAX_PAGES} pages of ${key}`);
}
