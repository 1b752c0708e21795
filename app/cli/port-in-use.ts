/**
 * For entry points that listen (`npm start`: PORT; `npm run worker`: WORKER_PORT): a port another
 * process holds prints one line saying so and how to fix it, without a stack trace, and ends the
 * process with exit code 2 (as a bad configuration does); any other error is thrown on.
 */
import { exitWithStartUpFailure } from "./start-up-checks";

export function exitIfPortInUse(error: unknown, port: number, variable: string): void {
  if ((error as NodeJS.ErrnoException | null)?.code !== "EADDRINUSE") return;
  exitWithStartUpFailure(
    `Port ${port} is already in use by another process: stop that process, or set ${variable} to a free port.`,
  );
}
