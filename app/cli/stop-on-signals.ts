/**
 * Clean shutdown for the processes that serve (`npm start`, `npm run worker`): the first SIGTERM
 * or SIGINT runs `stop` (stop taking work, finish what is under way, give the leases back), then
 * the process exits with code 0. Should `stop` not be done after `deadlineMs`, `lastly` runs (the
 * leases are given back all the same) and the process exits 0 anyway: a process manager waits 10 s
 * before it kills (docs/operations.md). Further signals while stopping change nothing.
 */
import { logger } from "../server/log";

export function stopOnSignals(options: {
  name: string;
  stop: () => Promise<void>;
  lastly: () => Promise<void>;
  deadlineMs?: number;
}): void {
  let stopping = false;
  const log = logger().child({ component: options.name });
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping after the work under way`);
    const deadline = new Promise<void>((resolve) =>
      setTimeout(resolve, options.deadlineMs ?? 8_000).unref(),
    );
    const logStopError = (error: unknown) => log.error({ err: error }, "while stopping");
    void Promise.race([options.stop().catch(logStopError), deadline])
      .then(() => options.lastly().catch(logStopError))
      .finally(() => {
        log.info("stopped");
        process.exit(0);
      });
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, onSignal);
}
