import type { PrincipalValueStore } from "../oauth/principal-connect.js";

/** A principal value store in memory, answering as the proxy's credential store does. */
export function createMemoryValueStore() {
  const values = new Map<string, Readonly<Record<string, string>>>();
  return {
    valuesFor: (principal: string, backend: string) => values.get(`${principal}/${backend}`),
    replace: (principal: string, backend: string, next: Readonly<Record<string, string>>) => {
      values.set(`${principal}/${backend}`, next);
    },
  } satisfies PrincipalValueStore;
}
