/** `serve()` was asked for a profile the config does not define. Local error: string code. */
export class UnknownProfileError extends Error {
  /** Always `UNKNOWN_PROFILE`. */
  readonly code = "UNKNOWN_PROFILE";
  /** The profile asked for. */
  readonly profile: string;
  constructor(profile: string) {
    super(`Unknown profile "${profile}"`);
    this.name = "UnknownProfileError";
    this.profile = profile;
  }
}
