/**
 * When the Dashboard says live updates stopped: only when no worker of any process has beaten for
 * a minute while a change has waited as long. A worker that beats keeps a long wait (a spent quota,
 * a 429) from being called a stop; a worker gone for a day is forgotten.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import prisma from "../../../app/models/db.server";
import * as beats from "../../../app/sync/live/worker-beat";

const t0 = new Date("2026-11-25T14:00:00Z");
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1_000);

beforeAll(async () => {
  await prepareAppEnvironment();
  await prisma.liveWorkerBeat.deleteMany();
});

describe("workersStoppedSince", () => {
  it("is null while nothing waits, or a change waits less than a minute", async () => {
    expect(await beats.workersStoppedSince(null, at(600))).toBeNull();
    expect(await beats.workersStoppedSince(at(0), at(59))).toBeNull();
  });

  it("is when the oldest change began to wait when no worker ever beat", async () => {
    expect(await beats.workersStoppedSince(at(0), at(61))).toEqual(at(0));
  });

  it("is null while a worker beats, however long the change has waited", async () => {
    const beat = beats.workerBeater("worker-a");
    await beat(at(3_000));
    expect(await beats.workersStoppedSince(at(0), at(3_030))).toBeNull();
    // Beats closer together than BEAT_EVERY_MS are not written.
    await beat(at(3_005));
    expect(
      (await prisma.liveWorkerBeat.findUniqueOrThrow({ where: { holder: "worker-a" } })).beatAt,
    ).toEqual(at(3_000));
  });

  it("is the last beat of any worker once all are silent for a minute", async () => {
    await beats.workerBeater("worker-b")(at(3_020));
    expect(await beats.workersStoppedSince(at(0), at(3_079))).toBeNull();
    expect(await beats.workersStoppedSince(at(0), at(3_081))).toEqual(at(3_020));
  });

  it("forgets a worker gone for a day", async () => {
    await beats.workerBeater("worker-c")(at(3_020 + 86_401));
    expect(
      await prisma.liveWorkerBeat.count({ where: { holder: { in: ["worker-a", "worker-b"] } } }),
    ).toBe(0);
  });
});
