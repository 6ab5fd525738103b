/**
 * Where a server-to-client request names its input key (the MRTR `inputRequests` key of the
 * 2026-07-28 era) when it travels on a legacy session: `_meta["io.patchbay/input-key"]`. A gateway
 * that turns the request into an `input_required` result for a modern client asks under this key,
 * so the question keeps the name the tool gave it. Clients that do not know the key ignore it.
 */
export const INPUT_KEY_META_KEY = "io.patchbay/input-key";

/** `params` with `inputKey` in `_meta[INPUT_KEY_META_KEY]`; returned as they are without a key. */
export function withInputKey<Params>(params: Params, inputKey: string | undefined): Params {
  if (inputKey === undefined) return params;
  const base = (typeof params === "object" && params !== null ? params : {}) as Record<
    string,
    unknown
  >;
  const meta = (typeof base._meta === "object" && base._meta !== null ? base._meta : {}) as Record<
    string,
    unknown
  >;
  return { ...base, _meta: { ...meta, [INPUT_KEY_META_KEY]: inputKey } } as Params;
}
