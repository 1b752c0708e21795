/**
 * /healthz and /readyz over real HTTP (app/server/health.server.ts, health-routes.ts): on the app
 * server and on `npm run worker`'s WORKER_PORT listener; 503 naming the failing check when the
 * database cannot be reached or is not migrated, 200 again once it is back, without a restart;
 * never a shop in the answer.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, connect, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningAppServer } from "../../app/server/app-server";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import { freePort } from "../../testkit/free-port";
import { requireCurrentBuild } from "../../testkit/live-stack";
import { postgresBinDir, startPostgresCluster } from "../../testkit/postgres-cluster";
import { createEmptyDatabase, createMigratedDatabase } from "../../testkit/test-database";
import { createPostgresDatabase } from "../../dev/postgres-database";
import { migrateDatabase } from "../../app/cli/migrate-database";
import prisma from "../../app/models/db.server";
import { checkReadiness } from "../../app/server/health.server";
import { startAppServer } from "../../app/server/app-server";
import { npmCommand } from "../../testkit/npm-command";

const ROOT = join(import.meta.dirname, "..", "..");
const SHOP = "health-probe.myshopify.com";
let app: RunningAppServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  requireCurrentBuild();
  await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
  await prisma.shop.create({ data: { shopDomain: SHOP, state: "active", syncProducts: true } });
  app = await startAppServer();
}, 60_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await app?.close();
});

async function get(url: string): Promise<{ status: number; text: string; body: Probe }> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as Probe };
}

interface Probe {
  status: string;
  failing?: string[];
  checks?: Record<string, { ok: boolean; detail?: string }>;
}

/** Spawns a command and resolves once its output matches `ready`. */
function spawnUntil(args: string[], env: Record<string, string>, ready: RegExp): Promise<string> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) resolve(match[1] ?? out);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

/** The built app server as its own process (testkit/app-server-process.ts); resolves its URL. */
function spawnAppServer(env: Record<string, string>): Promise<string> {
  return spawnUntil(
    ["--import", "tsx", "testkit/app-server-process.ts"],
    { NODE_ENV: "test", BACKGROUND_WORK: "off", ...env },
    /listening (\S+)/,
  );
}

async function waitForStatus(url: string, status: number): Promise<Probe> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await get(url);
    if (answer.status === status) return answer.body;
    if (Date.now() > deadline)
      throw new Error(`${url} still answers ${answer.status}: ${answer.text}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("the app server", () => {
  it("answers /healthz and /readyz 200 when healthy, naming each check, no shop in the body", async () => {
    const alive = await get(`${app.url}/healthz`);
    expect(alive.status).toBe(200);
    expect(alive.body.status).toBe("alive");
    const started = Date.now();
    const ready = await get(`${app.url}/readyz`);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: "ready",
      failing: [],
      checks: { databaseLock: { ok: true }, database: { ok: true }, migrations: { ok: true } },
    });
    expect(alive.text + ready.text).not.toContain(SHOP);
    expect(alive.text + ready.text).not.toContain("health-probe");
  });

  it("fails the migrations check on a database never migrated", async () => {
    const db = await createEmptyDatabase();
    const url = await spawnAppServer({ DATABASE_URL: db.url });
    const answer = await get(`${url}/readyz`);
    expect(answer.status).toBe(503);
    expect(answer.body.failing).toEqual(["migrations"]);
    expect(answer.body.checks?.database).toEqual({ ok: true });
    expect(answer.body.checks?.migrations?.ok).toBe(false);
  }, 60_000);

  const postgres = process.env.TEST_POSTGRES_URL || postgresBinDir();
  it.skipIf(!postgres)(
    "answers 503 naming the database while PostgreSQL cannot be reached, 200 again once it is back",
    async () => {
      const cluster = process.env.TEST_POSTGRES_URL
        ? { url: process.env.TEST_POSTGRES_URL, stop: async () => undefined }
        : await startPostgresCluster();
      const proxy = await tcpProxy(Number(new URL(cluster.url).port));
      try {
        const db = await createPostgresDatabase(cluster.url, "health");
        await migrateDatabase(db.url);
        const viaProxy = new URL(db.url);
        viaProxy.port = String(proxy.port);
        const url = await spawnAppServer({ DATABASE_URL: viaProxy.href });
        await waitForStatus(`${url}/readyz`, 200);

        await proxy.cut();
        const down = await waitForStatus(`${url}/readyz`, 503);
        expect(down.failing).toContain("database");
        expect(down.checks?.database?.ok).toBe(false);
        expect(JSON.stringify(down)).not.toMatch(/postgres(ql)?:\/\//);
        expect((await get(`${url}/healthz`)).status).toBe(200);

        await proxy.restore();
        const up = await waitForStatus(`${url}/readyz`, 200);
        expect(up.failing).toEqual([]);
      } finally {
        await proxy.cut();
        await cluster.stop();
      }
    },
    120_000,
  );
});

describe("readiness of a live worker", () => {
  it("fails when the worker's loop has not run for many poll intervals", async () => {
    const now = Date.now();
    const fresh = await checkReadiness({ liveWorker: { lastLoopAt: () => now }, pollMs: 1_000 });
    expect(fresh.ready).toBe(true);
    expect(fresh.checks.liveWorker).toEqual({ ok: true });
    const stuck = await checkReadiness({
      liveWorker: { lastLoopAt: () => now - 60_000 },
      pollMs: 1_000,
      now: () => now,
    });
    expect(stuck.ready).toBe(false);
    expect(stuck.failing).toEqual(["liveWorker"]);
  });
});

describe("npm run worker with WORKER_PORT", () => {
  it("answers /healthz and /readyz on its own port, the worker's loop included", async () => {
    const db = await createMigratedDatabase();
    const port = await freePort();
    await spawnUntil(
      npmCommand("worker"),
      { NODE_ENV: "test", DATABASE_URL: db.url, WORKER_PORT: String(port), LIVE_POLL_MS: "50" },
      /\/readyz on port/,
    );
    const base = `http://127.0.0.1:${port}`;
    expect((await get(`${base}/healthz`)).status).toBe(200);
    const ready = await waitForStatus(`${base}/readyz`, 200);
    expect(ready.checks).toEqual({
      databaseLock: { ok: true },
      database: { ok: true },
      migrations: { ok: true },
      liveWorker: { ok: true },
    });
    expect((await fetch(`${base}/other`)).status).toBe(404);
  }, 60_000);
});

/** A TCP forwarder to a local port that can be cut (listener closed, connections dropped) and restored on the same port. */
async function tcpProxy(target: number) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const restore = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(target, "127.0.0.1");
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  await restore();
  return { port, cut, restore };
}
