/**
 * `npm run worker`: the live worker as its own process (set LIVE_WORKER=separate for the app
 * server then). Same configuration as the app (app/config.server.ts); several may run: a shop's
 * changes are sent by the one that holds its lease.
 *
 * Like the app server (remix-serve), it runs as production unless NODE_ENV says otherwise, so it
 * never starts on the public development key or the local emulator's URL by accident.
 */
export {};

process.env.NODE_ENV ||= "production";
// Imported once NODE_ENV is set, for the libraries that read it when they load.
const { configOrExit } = await import("../config.server");
const env = configOrExit();
// A database that does not answer, or is not migrated: one line, exit code 2 (it never migrates).
const { exitWithStartUpFailure, readyOrExplain } = await import("./start-up-checks");
const problem = await readyOrExplain();
if (problem) exitWithStartUpFailure(problem);
const { startWorkerProcess } = await import("./worker-process");
await startWorkerProcess(env);
