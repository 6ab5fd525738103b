/** One reason a message was refused, with the path of the offending value inside the message. */
export interface ValidationIssue {
  /** Path from the message root, e.g. `["params", "content", 0, "text"]`. */
  readonly path: readonly PropertyKey[];
  /** What was expected. */
  readonly message: string;
}

/** The outcome of validating a value. */
export type ValidationResult<Value> =
  | { readonly success: true; readonly data: Value }
  | {
      readonly success: false;
      /** Every issue found. */
      readonly issues: readonly ValidationIssue[];
      /** The issues as one readable line each: `params.name: Invalid input: expected string`. */
      readonly message: string;
    };

/** Renders a path as `params.content[0].text`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text === "" ? "(root)" : text;
}

/** Renders issues one per line, each prefixed with its path. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`).join("\n");
}

/** A failed ValidationResult built from issues. */
export function invalid(issues: readonly ValidationIssue[]): ValidationResult<never> {
  return { success: false, issues, message: formatIssues(issues) };
}
