import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { describeWithheld } from "@patchbay/router";
import { loadConfigFile } from "@patchbay/router/config-file";
import { approvePinFile, pinFileOf, readPinFile } from "@patchbay/router/pins-file";
import { PROXY_ONLY_BLOCKS } from "./proxy-blocks.js";

/** The help of `patchbay-gateway pins`. */
export const pinsHelp = `Usage: patchbay-gateway pins list --config <file>
       patchbay-gateway pins approve <name> --config <file>
       patchbay-gateway pins approve --all [--backend <key>] --config <file>

Shows or approves the pinned definitions of tools, prompts and resource templates in the pin
file of <file> (pins.file, default <file>.pins.json). A running gateway serves what is approved
at once and tells its client the list changed.
`;

interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** Runs `patchbay-gateway pins ...` (`args` after `pins`); returns the exit code. */
export async function runPinsCommand(args: readonly string[], output: Output): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    output.err(`patchbay-gateway pins: ${(error as Error).message}\n\n${pinsHelp}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [action, name, ...extra] = positionals;
  if (values.config === undefined) {
    output.err(`patchbay-gateway pins: --config <file> is required\n\n${pinsHelp}`);
    return 2;
  }
  const listing = action === "list" && name === undefined && values.all !== true;
  const approving = action === "approve" && (name === undefined) === (values.all === true);
  if ((!listing && !approving) || extra.length > 0) {
    output.err(
      `patchbay-gateway pins: expected list, approve <name> or approve --all\n\n${pinsHelp}`,
    );
    return 2;
  }
  const configPath = resolve(values.config);
  const { config } = await loadConfigFile(configPath, process.env, {
    ignoreBlocks: PROXY_ONLY_BLOCKS,
  });
  const path = pinFileOf(configPath, config.pins);
  if (listing) {
    output.out(`${JSON.stringify(await listPins(path), null, 2)}\n`);
    return 0;
  }
  const approved = await approvePinFile(
    path,
    name !== undefined
      ? { name }
      : values.backend !== undefined
        ? { backend: values.backend, all: true }
        : { all: true },
  );
  if (approved.length === 0) {
    output.err(`patchbay-gateway pins: nothing withheld matches in ${path}\n`);
    return 1;
  }
  output.out(`approved: ${approved.join(", ")}\n`);
  return 0;
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    options: {
      config: { type: "string", short: "c" },
      all: { type: "boolean" },
      backend: { type: "string" },
    },
    allowPositionals: true,
    strict: true,
  });
}

/** Every pin of the file, each withheld one with its diff. */
async function listPins(path: string): Promise<Record<string, unknown>[]> {
  const snapshot = await readPinFile(path);
  return Object.entries(snapshot?.backends ?? {}).flatMap(([backend, entries]) =>
    Object.values(entries).map((entry) => ({
      backend,
      kind: entry.kind,
      name: entry.name,
      status: entry.pending?.status ?? "pinned",
      hash: entry.pinned?.hash ?? null,
      ...(entry.pending === undefined ? {} : { withheld: describeWithheld(backend, entry) }),
    })),
  );
}
