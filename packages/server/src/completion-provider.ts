import type { RequestHandlerContext } from "./request-handler-context.js";

/** What a completion provider learns about the request besides the partial value. */
export interface CompletionContext {
  /** Values of the other arguments or variables already resolved (`context.arguments`, 2025-06-18). */
  readonly arguments: Readonly<Record<string, string>>;
  /** The context of the `completion/complete` request. */
  readonly request: RequestHandlerContext;
}

/**
 * Suggests values for one prompt argument or template variable given what the user typed so far.
 * The server sends at most 100 values and says how many there were (MCP "Completion").
 */
export type CompletionProvider = (
  value: string,
  context: CompletionContext,
) => readonly string[] | Promise<readonly string[]>;

/** The most values one `completion/complete` result may carry. */
export const MAX_COMPLETION_VALUES = 100;
