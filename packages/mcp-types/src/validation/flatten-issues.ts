import type { z } from "zod";
import type { ValidationIssue } from "./validation-issue.js";

type Issue = z.core.$ZodIssue;

function score(issues: readonly Issue[]): [number, number, number] {
  // A branch that failed on a literal (a `type`, `mode` or `resultType` value) is the wrong
  // branch; otherwise the branch that got deepest is the one the sender meant.
  const literalMismatch = issues.some((issue) => issue.code === "invalid_value") ? 0 : 1;
  const depth = Math.max(0, ...issues.map((issue) => issue.path.length));
  return [literalMismatch, depth, -issues.length];
}

function isBetter(candidate: [number, number, number], best: [number, number, number]): boolean {
  for (let index = 0; index < candidate.length; index += 1) {
    const difference = (candidate[index] as number) - (best[index] as number);
    if (difference !== 0) return difference > 0;
  }
  return false;
}

/**
 * Turns zod issues into ValidationIssues, replacing a union's "Invalid input" by the issues of the
 * branch the value most likely meant, so the path points at the real problem
 * (`result.content[1].text`, not `result`).
 */
export function flattenIssues(
  issues: readonly Issue[],
  prefix: readonly PropertyKey[],
): ValidationIssue[] {
  const flattened: ValidationIssue[] = [];
  for (const issue of issues) {
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      let best = issue.errors[0] as Issue[];
      let bestScore = score(best);
      for (const branch of issue.errors.slice(1)) {
        const branchScore = score(branch);
        if (isBetter(branchScore, bestScore)) {
          best = branch;
          bestScore = branchScore;
        }
      }
      flattened.push(...flattenIssues(best, [...prefix, ...issue.path]));
      continue;
    }
    flattened.push({ path: [...prefix, ...issue.path], message: issue.message });
  }
  return flattened;
}
