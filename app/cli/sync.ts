import { runSyncCommand } from "./sync-command";

process.exitCode = await runSyncCommand(process.argv.slice(2), process.env, process);
