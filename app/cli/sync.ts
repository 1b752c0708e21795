import { runSyncCommand } from "./sync-command";
import { configureLogging } from "../server/log";

// Its stdout is its report (or --json's object): what the engine logs goes to stderr, readable.
configureLogging({ fd: 2, format: "pretty" });
process.exitCode = await runSyncCommand(process.argv.slice(2), process.env, process);
