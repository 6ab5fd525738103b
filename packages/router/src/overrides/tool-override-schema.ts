import { z } from "zod";

/** A tool name as MCP spells them: 1 to 128 of `[A-Za-z0-9_.-]`. */
const toolName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,128}$/, "tool names are 1 to 128 characters of [A-Za-z0-9_.-]");

/** The annotations MCP defines (2025-11-25 `ToolAnnotations`); a misspelt one is an error. */
const ToolAnnotationsOverrideSchema = z.strictObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

/**
 * How the gateway reshapes one tool. Unknown keys are errors (a misspelt key would silently leave
 * the tool as the backend describes it).
 */
export const ToolOverrideSchema = z.strictObject({
  /** The tool's new name (see `OverridesConfigSchema` for what it replaces). */
  name: toolName.optional(),
  /** Replaces the tool's description. */
  description: z.string().optional(),
  /** Appended to the description (after the replacement, if both are set), on a new paragraph. */
  appendDescription: z.string().min(1).optional(),
  /** Merged over the tool's own annotations (MCP 2025-11-25 `ToolAnnotations`). */
  annotations: ToolAnnotationsOverrideSchema.optional(),
  /**
   * Parameters the gateway sets: removed from the input schema shown to clients, injected into
   * every call's `arguments`.
   */
  fixedArguments: z.record(z.string().min(1), z.unknown()).optional(),
});

/**
 * The `overrides` block of a backend (keys: the backend's own tool names; `name` replaces the part
 * after the namespace) or of a profile (keys: exposed names as clients see them without the
 * profile; `name` is the whole new exposed name).
 */
export const OverridesConfigSchema = z.strictObject({
  tools: z.record(z.string().min(1), ToolOverrideSchema).optional(),
});

/** How the gateway treats descriptions its scanner flags: ignore, warn once, or hide the tool. */
export const ScanModeSchema = z.enum(["off", "warn", "withhold"]);

/** One tool override as written. */
export type ToolOverride = z.infer<typeof ToolOverrideSchema>;

/** The `overrides` block as written. */
export type OverridesConfig = z.infer<typeof OverridesConfigSchema>;

/** How flagged descriptions are treated. */
export type ScanMode = z.infer<typeof ScanModeSchema>;
