import { z } from "zod";

/** Tool names: 1 to 128 characters of `[A-Za-z0-9_.-]`, case-sensitive (2025-11-25 guidance). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** The longest tool name the specification allows. */
export const TOOL_NAME_MAX_LENGTH = 128;

/** The outcome of `validateToolName`. */
export type ToolNameValidation =
  | { readonly valid: true }
  | { readonly valid: false; readonly message: string };

/** Checks a tool name and says precisely what is wrong with it. */
export function validateToolName(name: string): ToolNameValidation {
  if (name.length === 0) return { valid: false, message: "Tool name must not be empty" };
  if (name.length > TOOL_NAME_MAX_LENGTH) {
    return {
      valid: false,
      message: `Tool name "${name.slice(0, 32)}…" is ${name.length} characters long; the maximum is ${TOOL_NAME_MAX_LENGTH}`,
    };
  }
  const invalid = [...new Set(name.replace(/[A-Za-z0-9_.-]/g, ""))];
  if (invalid.length > 0) {
    const listed = invalid.map((character) => JSON.stringify(character)).join(", ");
    return {
      valid: false,
      message: `Tool name "${name}" contains ${listed}; only A-Z, a-z, 0-9, "_", "." and "-" are allowed`,
    };
  }
  return { valid: true };
}

/** Whether `name` is a valid tool name. */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/** A zod schema for a strictly valid tool name (use where you produce names, e.g. a gateway). */
export const ToolNameSchema = z.string().superRefine((name, context) => {
  const result = validateToolName(name);
  if (!result.valid) context.addIssue({ code: "custom", message: result.message });
});
