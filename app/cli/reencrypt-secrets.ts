/**
 * `npm run secrets:reencrypt`: seals every stored secret with ENCRYPTION_KEY, opening them with
 * ENCRYPTION_KEY or ENCRYPTION_KEY_PREVIOUS (docs/key-rotation.md). Runs as production unless
 * NODE_ENV says otherwise, like the server and the worker.
 */
export {};

const USAGE = `Usage: npm run secrets:reencrypt

Seals every stored secret with ENCRYPTION_KEY, opening each with ENCRYPTION_KEY or
ENCRYPTION_KEY_PREVIOUS (docs/key-rotation.md). Takes no arguments.
Exit status: 0 done, 2 a bad configuration, arguments, or a database that does not answer or is
             not migrated.
`;
const args = process.argv.slice(2);
if (args.length > 0) {
  // Nothing is read or written unless it is asked for as documented.
  const help = args.length === 1 && (args[0] === "--help" || args[0] === "-h");
  (help ? process.stdout : process.stderr).write(USAGE);
  process.exit(help ? 0 : 2);
}

process.env.NODE_ENV ||= "production";
// Imported once NODE_ENV is set, for the libraries that read it when they load.
const { configOrExit } = await import("../config.server");
const { configureLogging } = await import("../server/log");
// A command run by a person: what it logs is readable, beside its report on stdout.
configureLogging({ fd: 2, format: "pretty" });
const env = configOrExit();
// A database that does not answer, or is not migrated: one line, exit code 2 (it never migrates).
const { exitWithStartUpFailure, readyOrExplain } = await import("./start-up-checks");
const problem = await readyOrExplain();
if (problem) exitWithStartUpFailure(problem);
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
