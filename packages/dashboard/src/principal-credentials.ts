import {
  type BackendConfig,
  connectsPerPrincipal,
  credentialSlotsOf,
  setByUser,
} from "@patchbay/router";

/** Where the credential store's values are (never the values): the proxy's store answers it. */
export interface CredentialPlaces {
  places(): readonly {
    readonly principal: string;
    readonly backend: string;
    readonly slot: string;
  }[];
}

/** Whether a principal has what a per-principal backend needs: every slot, some, or none. */
export type PrincipalCredentialState = "stored" | "partial" | "missing";

/** One per-principal backend in the snapshot: who stores its values, and each principal's state. */
export interface DashboardPrincipalBackend {
  readonly backend: string;
  /** `operator` (the `credentials set` command), `principal` (`setByUser`) or `oauth` (connect). */
  readonly setBy: "operator" | "principal" | "oauth";
  readonly principals: readonly {
    readonly principal: string;
    readonly state: PrincipalCredentialState;
  }[];
}

/**
 * For each per-principal backend, the principals the dashboard knows of (`known`: the static
 * tokens' names, and whoever has something stored for it) and whether each has a value for every
 * slot, for some or for none. Only states leave: never a value, never a link.
 */
export function principalCredentialStates(
  backends: readonly BackendConfig[],
  known: readonly string[],
  store: CredentialPlaces,
): DashboardPrincipalBackend[] {
  const places = store.places();
  return backends
    .filter((backend) => backend.isolation === "per-principal")
    .map((backend) => {
      const slots = credentialSlotsOf(backend);
      const stored = new Map<string, Set<string>>();
      for (const place of places) {
        if (place.backend !== backend.name) continue;
        const slotsOf = stored.get(place.principal) ?? new Set();
        slotsOf.add(place.slot);
        stored.set(place.principal, slotsOf);
      }
      const principals = [...new Set([...known, ...stored.keys()])].sort();
      return {
        backend: backend.name,
        setBy: connectsPerPrincipal(backend)
          ? ("oauth" as const)
          : setByUser(backend)
            ? ("principal" as const)
            : ("operator" as const),
        principals: principals.map((principal) => {
          const have = slots.filter((slot) => stored.get(principal)?.has(slot) === true).length;
          const state: PrincipalCredentialState =
            have === slots.length ? "stored" : have === 0 ? "missing" : "partial";
          return { principal, state };
        }),
      };
    });
}
