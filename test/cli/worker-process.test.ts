import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  indexableProduct,
  installShop,
  SHOP,
  startLiveEnvironment,
  waitFor,
  waitForEmptyOutbox,
  waitForIndexToEqualStore,
  type LiveEnvironment,
} from "../../testkit/live-stack";
import { npmCommand } from "../../testkit/npm-command";

const ROOT = join(import.meta.dirname, "..", "..");
let env: LiveEnvironment;
const children: ChildProcess[] = [];

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 30 });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await env?.close();
});

/** `npm run worker` as its own process, on the test's database, Shopify and service. */
function startWorkerProcess(): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, npmCommand("worker"), {
    cwd: ROOT,
    env: { ...process.env, LIVE_POLL_MS: "50", LIVE_COALESCE_MS: "100", LIVE_LEASE_MS: "1500" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", () => resolve()));
}

describe("npm run worker", () => {
  it("killed in the middle of a batch, delivers everything after a restart", async () => {
    // The service holds the first bulk upsert long enough to kill the worker while it waits.
    env.emulator.state.injectFault({
      delayMs: 5_000,
      match: { method: "POST", path: "/products/bulk" },
    });
    for (let i = 0; i < 12; i++) {
      const product = indexableProduct(env, i);
      env.shopify.state.updateProduct(
        product.id,
        { title: `Killed batch ${i}` },
        { webhook: true },
      );
    }
    await env.shopify.state.settled();
    expect(await env.prisma.pendingChange.count()).toBe(12);

    const first = startWorkerProcess();
    await waitFor("the batch to reach the service", () => env.emulator.state.faults().length === 0);
    first.child.kill("SIGKILL");
    await exited(first.child);
    // Nothing was acknowledged, so nothing left the outbox; the dead worker's lease runs out.
    expect(await env.prisma.pendingChange.count()).toBe(12);
    expect(await env.prisma.shopLease.count({ where: { shopDomain: SHOP } })).toBe(1);

    const second = startWorkerProcess();
    await waitForEmptyOutbox(env);
    await waitForIndexToEqualStore(env);
    second.child.kill("SIGTERM");
    await exited(second.child);
    expect(second.output()).toMatch(/worker .* started/);
    // The stopped worker gave its lease back.
    expect(await env.prisma.shopLease.count({ where: { shopDomain: SHOP } })).toBe(0);
  });
  it("takes every webhook while it sends: 200 deliveries, none refused, nothing lost", async () => {
    const worker = startWorkerProcess();
    await waitFor("the worker to start", () => /worker .* started/.test(worker.output()));
    env.shopify.state.clearWebhookDeliveries();
    // The service is slow, so that the worker holds batches open while the webhooks arrive.
    env.emulator.state.injectFault({
      delayMs: 300,
      count: 5,
      match: { method: "POST", path: "/products/bulk" },
    });
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 20; i++) {
        const product = indexableProduct(env, i);
        env.shopify.state.updateProduct(
          product.id,
          { title: `Round ${round} of ${i}` },
          { webhook: true },
        );
      }
      await env.shopify.state.settled();
    }
    const statuses = env.shopify.state.webhookDeliveries().map((d) => d.status);
    expect(statuses).toHaveLength(200);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    await waitForEmptyOutbox(env);
    await waitForIndexToEqualStore(env);
    worker.child.kill("SIGTERM");
    await exited(worker.child);
    expect(worker.output()).not.toMatch(/database is locked|SQLITE_BUSY/);
  });

  it("two workers on one shop: only the lease's holder sends; killed mid-batch, the other takes over and loses nothing", async () => {
    const holderPid = async () => {
      const lease = await env.prisma.shopLease.findUnique({ where: { shopDomain: SHOP } });
      return lease ? Number(lease.holder.split(":")[1]) : null;
    };
    const writes = () =>
      env.emulator.state
        .requests()
        .filter((r) => r.method !== "GET" && r.path.startsWith("/products"));
    env.emulator.state.clearRequests();
    env.emulator.state.clearFaults(); // what an earlier test left unused
    // The service holds the first bulk upsert long enough to kill its sender while it waits.
    env.emulator.state.injectFault({
      delayMs: 5_000,
      match: { method: "POST", path: "/products/bulk" },
    });
    for (let i = 0; i < 12; i++) {
      const product = indexableProduct(env, i);
      env.shopify.state.updateProduct(product.id, { title: `Two workers ${i}` }, { webhook: true });
    }
    await env.shopify.state.settled();
    const a = startWorkerProcess();
    const b = startWorkerProcess();
    const pids = [a.child.pid, b.child.pid];
    const holders = new Set<number | null>();
    await waitFor("the batch to reach the service", async () => {
      holders.add(await holderPid());
      return env.emulator.state.faults().length === 0;
    });
    const ownerPid = await holderPid();
    expect(pids).toContain(ownerPid);
    const [owner, other] = ownerPid === a.child.pid ? [a, b] : [b, a];
    // Both polled the outbox every 50 ms while the batch was held: the other sent nothing.
    await waitFor("both workers to have started", () =>
      [a, b].every((w) => /worker .* started/.test(w.output())),
    );
    expect(writes()).toEqual([]);
    expect([...holders].filter((pid) => pid !== null)).toEqual([ownerPid]);

    owner.child.kill("SIGKILL");
    await exited(owner.child);
    await waitFor("the other worker to take the shop over", async () => {
      const pid = await holderPid();
      return pid === other.child.pid || (await env.prisma.pendingChange.count()) === 0;
    });
    await waitForEmptyOutbox(env);
    await waitForIndexToEqualStore(env);
    other.child.kill("SIGTERM");
    await exited(other.child);
  });
});
