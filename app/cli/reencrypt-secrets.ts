/**
 * `npm run secrets:reencrypt`: seals every stored secret with ENCRYPTION_KEY, opening them with
 * ENCRYPTION_KEY or ENCRYPTION_KEY_PREVIOUS (docs/key-rotation.md). Runs as production unless
 * NODE_ENV says otherwise, like the server and the worker.
 */
export {};

process.env.NODE_ENV ||= "production";
const { configOrExit } = await import("../config.server");
const env = configOrExit();
const { reencryptSecrets } = await import("../models/reencrypt-secrets.server");
const report = await reencryptSecrets(env.decryptionKeys);
console.log(
  `Secrets re-encrypted with ENCRYPTION_KEY: ${report.resealed}; already current: ${report.current}; unreadable with every key given: ${report.unreadable}.`,
);
if (report.unreadable > 0) {
  console.log("Shops whose key is unreadable pause on their next sync and ask for it in Settings.");
}
