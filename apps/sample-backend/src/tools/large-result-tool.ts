import type { Server } from "@patchbay/server";
import { z } from "zod";

/** The largest result `large_result` makes: enough to pass any default message limit. */
export const MAX_LARGE_RESULT_BYTES = 128 * 1024 * 1024;

const PATTERN = "0123456789abcdef";

/**
 * A tool that returns a text block of exactly `bytes` ASCII characters (a repeating `0-9a-f`
 * pattern, so a truncated or spliced result is visible), for testing large results end to end.
 */
export function registerLargeResultTool(server: Server): void {
  server.registerTool(
    "large_result",
    {
      title: "Large result",
      description: "Returns one text block of exactly `bytes` characters (0-9a-f repeated)",
      inputSchema: z.object({
        bytes: z
          .number()
          .int()
          .min(0)
          .max(MAX_LARGE_RESULT_BYTES)
          .default(1024 * 1024),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ bytes }) => ({
      content: [
        {
          type: "text",
          text: PATTERN.repeat(Math.ceil(bytes / PATTERN.length)).slice(0, bytes),
        },
      ],
    }),
  );
}
