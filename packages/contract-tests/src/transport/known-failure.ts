import { TimeoutError } from "@patchbay/jsonrpc-core";
import { ContractWaitError } from "./deadline.js";
import type { KnownFailure } from "./transport-contract-options.js";

/**
 * Puts the rule's name in front of a missed deadline's message; a Connection's request timeout (a
 * response that never came) becomes such a missed deadline too.
 */
function nameRule(rule: string, error: unknown): unknown {
  if (ContractWaitError.isInstance(error)) error.message = `${rule}: ${error.message}`;
  if (TimeoutError.isInstance(error)) {
    return new ContractWaitError(`${rule}: ${error.message}`, { cause: error });
  }
  return error;
}

/** Runs a case's body; a missed deadline or request timeout fails it with the rule's name. */
export async function runRule(rule: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    throw nameRule(rule, error);
  }
}

/** The reason of a known failure, as shown in the case's name. */
export function knownFailureReason(known: KnownFailure): string {
  return typeof known === "string" ? known : known.reason;
}

function matches(message: string, pattern: string | RegExp): boolean {
  return typeof pattern === "string" ? message.includes(pattern) : pattern.test(message);
}

/**
 * Runs a case declared as a known failure: it passes when the body fails (as `failsWith` says, if
 * given) and fails when the body passes, so that a fixed defect shows up as a red case.
 */
export async function expectKnownFailure(
  rule: string,
  known: KnownFailure,
  body: () => Promise<void>,
): Promise<void> {
  let failure: unknown;
  try {
    await body();
  } catch (error) {
    failure = nameRule(rule, error) ?? new Error("the case threw undefined");
  }
  const reason = knownFailureReason(known);
  if (failure === undefined) {
    throw new Error(
      `"${rule}" passes, but knownFailures declares it failing (${reason}): remove the declaration`,
    );
  }
  const failsWith = typeof known === "string" ? undefined : known.failsWith;
  const message = failure instanceof Error ? failure.message : String(failure);
  if (failsWith !== undefined && !matches(message, failsWith)) {
    throw new Error(
      `"${rule}" fails differently from its knownFailures declaration (expected ${String(failsWith)}): ${message}`,
      { cause: failure },
    );
  }
}
