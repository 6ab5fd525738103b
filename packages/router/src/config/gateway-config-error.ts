/** One problem in a config file: where it is and what was expected. */
export interface ConfigIssue {
  /** Path of the value in the file, such as `mcpServers.github.timeoutMs` (`""`: the whole file). */
  readonly path: string;
  readonly message: string;
}

/** A config file that cannot be used. Local error: string code, every issue listed. */
export class GatewayConfigError extends Error {
  /** Always `INVALID_CONFIG`. */
  readonly code = "INVALID_CONFIG";
  /** Every problem found, in file order where possible. */
  readonly issues: readonly ConfigIssue[];
  constructor(issues: readonly ConfigIssue[], source?: string, options?: { cause?: unknown }) {
    const where = source === undefined ? "config" : `config ${source}`;
    const lines = issues.map(
      (issue) => `- ${issue.path === "" ? "(file)" : issue.path}: ${issue.message}`,
    );
    super(`Invalid ${where}:\n${lines.join("\n")}`, options);
    this.name = "GatewayConfigError";
    this.issues = issues;
  }
}
