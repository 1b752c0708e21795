/**
 * `npm run secrets:reencrypt`: seals every stored secret with ENCRYPTION_KEY, opening them with
 * ENCRYPTION_KEY or ENCRYPTION_KEY_PREVIOUS (docs/key-rotation.md). Runs as production unless
 * NODE_ENV says otherwise, like the server and the worker.
 */
export {};

process.env.NODE_ENV ||= "production";
// Imported once NODE_ENV is set, for the libraries that read it when they load.
const { configOrExit } = await import("../config.server");
const { configureLogging } = await import("../server/log");
// A command run by a person: what it logs is readable, beside its report on stdout.
configureLogging({ fd: 2, format: "pretty" });
const env = configOrExit();
const { reencryptSecrets } = await import("../models/reencrypt-secrets.server");
const report = await reencryptSecrets(env.decryptionKeys);
process.stdout.write(
  `Secrets re-encrypted with ENCRYPTION_KEY: ${report.resealed}; already current: ${report.current}; unreadable with every key given: ${report.unreadable}.\n`,
);
if (report.unreadable > 0) {
  process.stdout.write(
    "Shops whose key is unreadable pause on their next sync and ask for it in Settings.\n",
  );
}
