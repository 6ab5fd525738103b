import type { Router } from "@patchbay/router";

/** What `/readyz` answers. */
export interface Readiness {
  readonly ready: boolean;
  /** Each shared backend's status (`running`, `starting`, `failed`, ...). */
  readonly backends: Readonly<Record<string, string>>;
}

/**
 * Ready when every shared backend that should be running is: eager ones `running`, lazy ones not
 * yet started (`idle`) or running, disabled ones ignored.
 */
export function readiness(router: Router): Readiness {
  const status = router.status() as {
    backends?: Record<string, { status?: string; start?: string }>;
  };
  const backends: Record<string, string> = {};
  let ready = true;
  for (const [name, backend] of Object.entries(status.backends ?? {})) {
    const state = backend.status ?? "unknown";
    backends[name] = state;
    const fine =
      state === "running" || state === "disabled" || (backend.start === "lazy" && state === "idle");
    if (!fine) ready = false;
  }
  return { ready, backends };
}
