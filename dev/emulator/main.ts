/**
 * Starts the index-service emulator from the command line:
 *   npx tsx dev/emulator/main.ts
 * EMULATOR_PORT (default 4010), EMULATOR_HOST (default 127.0.0.1), EMULATOR_TOKEN_DELAY_MS
 * (default 20) and EMULATOR_TIME_SCALE (default 1) configure it.
 */
import { BUILT_IN_ACCOUNTS } from "./accounts";
import { numberFrom } from "../http";
import { startEmulator } from "./server";

const emulator = await startEmulator({
  port: numberFrom("EMULATOR_PORT", 4010),
  host: process.env.EMULATOR_HOST ?? "127.0.0.1",
  tokenDelayMs: numberFrom("EMULATOR_TOKEN_DELAY_MS", 20),
  timeScale: numberFrom("EMULATOR_TIME_SCALE", 1),
});

console.log(`Index service emulator listening on ${emulator.url}`);
console.log(`Inspection: ${emulator.url}/__emulator`);
console.log("Test keys:");
for (const account of BUILT_IN_ACCOUNTS) {
  const keys = [...(account.secretKeys ?? []), ...(account.publishableKeys ?? [])].join("  ");
  console.log(`  ${account.name.padEnd(14)} ${keys}`);
}

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  void emulator.close().then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
