/** The `code` of a {@link BackendSignInRequiredError}. */
export const SIGN_IN_REQUIRED = "SIGN_IN_REQUIRED";

/**
 * Thrown by a backend's transport factory, or by its transport, when the backend cannot be reached
 * until a person signs in (OAuth with no usable token): the router does not restart it, its status
 * is `needs_sign_in`, and `message` (what to run) is its last error and what its callers are told.
 */
export class BackendSignInRequiredError extends Error {
  readonly code = SIGN_IN_REQUIRED;

  constructor(message: string) {
    super(message);
    this.name = "BackendSignInRequiredError";
  }
}

/**
 * The sign-in error in `error` or in its chain of causes (a transport wraps what its fetch threw),
 * recognised by its `code` so that two copies of this package agree.
 */
export function signInRequiredOf(error: unknown): Error | undefined {
  let current = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    if ((current as { code?: unknown }).code === SIGN_IN_REQUIRED) return current;
    current = current.cause;
  }
  return undefined;
}
