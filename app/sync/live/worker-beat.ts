/**
 * Whether some live worker is taking the shops' changes: each worker loop beats at most every
 * BEAT_EVERY_MS (app/models/live-worker-beats), and with no beat for SILENT_AFTER_MS the workers
 * are taken as stopped. The silence is six beats long so a loop slowed by a busy database or a
 * long chore is not mistaken for a stopped one; a change waiting that long is then news.
 */
import { latestWorkerBeat, recordWorkerBeat } from "../../models/live-worker-beats.server";

export const BEAT_EVERY_MS = 10_000;
export const SILENT_AFTER_MS = 6 * BEAT_EVERY_MS;

/** A beater for one worker: `beat(now)` records a beat when the last is BEAT_EVERY_MS old. */
export function workerBeater(holder: string) {
  let last = Number.NEGATIVE_INFINITY;
  return async (now: Date): Promise<void> => {
    if (now.getTime() - last < BEAT_EVERY_MS) return;
    last = now.getTime();
    await recordWorkerBeat(holder, now);
  };
}

/**
 * When the live workers stopped, if they did: the latest beat (or, when no worker ever beat, the
 * time the oldest change or lookup began to wait) is SILENT_AFTER_MS old while a change has
 * waited as long.
 */
export async function workersStoppedSince(
  oldestWaitingAt: Date | null,
  now: Date,
): Promise<Date | null> {
  if (!oldestWaitingAt || now.getTime() - oldestWaitingAt.getTime() < SILENT_AFTER_MS) return null;
  const beat = await latestWorkerBeat();
  if (beat && now.getTime() - beat.getTime() < SILENT_AFTER_MS) return null;
  return beat ?? oldestWaitingAt;
}
