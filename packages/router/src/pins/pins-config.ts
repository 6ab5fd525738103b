/** What to serve while a pinned definition's change waits for approval. */
export type PinChangePolicy = "keep" | "hide";

/** The `pins` block as written (every key optional). */
export interface PinsConfig {
  /** Where the stdio gateway keeps its pins (default `<config file>.pins.json`); the proxy's file store. */
  readonly file?: string;
  /** `hide` (default): a changed item disappears; `keep`: its approved definition keeps being served. */
  readonly onChange?: PinChangePolicy;
  /** Pin what is seen first (default true); false serves only what `pinned` or an approval allows. */
  readonly trustOnFirstUse?: boolean;
  /** Approved hashes shipped in the config, by pin name (exposed name). */
  readonly pinned?: Readonly<Record<string, string>>;
}

/** The `pins` block with its defaults applied. */
export interface ResolvedPinsConfig {
  readonly onChange: PinChangePolicy;
  readonly trustOnFirstUse: boolean;
  readonly pinned: Readonly<Record<string, string>>;
}

/** The default `onChange`: nothing unapproved, old or new, is served (see the router README, "Pins"). */
export const DEFAULT_PIN_CHANGE_POLICY: PinChangePolicy = "hide";

/** Applies the defaults to a `pins` block (absent: every default). */
export function resolvePinsConfig(pins: PinsConfig | undefined): ResolvedPinsConfig {
  return {
    onChange: pins?.onChange ?? DEFAULT_PIN_CHANGE_POLICY,
    trustOnFirstUse: pins?.trustOnFirstUse ?? true,
    pinned: pins?.pinned ?? {},
  };
}
