/**
 * Ctrl-C and SIGTERM for `npm run demo`, taken from the first moment: main.ts imports this module
 * first, so the handlers are in place before the app's modules load (which takes seconds).
 * Stopping closes what the demo started (`stop.demo`, once it is up), which removes its temporary
 * folder and its database, then exits 0; a stop during start-up or the first sync exits at once,
 * and the folder goes with the process (admin-demo.ts). Further signals while stopping change
 * nothing.
 */
export const stop: { demo?: { close(): Promise<void> }; stopping?: Promise<void> } = {};

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    stop.stopping ??= (stop.demo?.close() ?? Promise.resolve())
      .catch((error: unknown) => console.error("While stopping the demo:", error))
      .finally(() => process.exit(0));
  });
