/**
 * Runs `pass` every `everyMs` in the background, never two passes at once: a tick that comes while
 * a pass is still under way is skipped. A pass that fails goes to `onFailure`. The timer does not
 * keep the process alive. Returns a stop function.
 */
export function repeatWithoutOverlap(
  everyMs: number,
  pass: () => Promise<unknown>,
  onFailure: (error: unknown) => void,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pass()
      .catch(onFailure)
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
