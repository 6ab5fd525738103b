import { runCredentialsCommand, UsageError } from "./credentials-cli.js";

/** `patchbay-proxy credentials …` on the process's stdin, stdout and environment. */
export async function credentialsMain(argv: readonly string[]): Promise<number> {
  try {
    return await runCredentialsCommand(argv, {
      environment: process.env,
      readStdin: async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString("utf8");
      },
      write: (text) => process.stdout.write(text),
    });
  } catch (error) {
    const { code } = (error ?? {}) as { code?: unknown };
    const usage = error instanceof UsageError || code === "ERR_PARSE_ARGS_UNKNOWN_OPTION";
    // Messages only (a config error, the store, the key): never a value, which is not in them.
    const name = (error as Error | undefined)?.name ?? "";
    // The cluster's errors name the Redis address without its password, never the secret.
    const cluster = name === "ClusterSecretError" || name === "RedisUnreachableError";
    const known = usage || cluster || code === "CREDENTIAL_STORE" || code === "INVALID_CONFIG";
    const text = known ? (error as Error).message : String((error as Error).stack ?? error);
    process.stderr.write(`patchbay-proxy credentials: ${text}\n`);
    return usage ? 2 : 1;
  }
}
