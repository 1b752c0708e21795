import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SHOP, type RunningDemo } from "../../dev/demo/admin-demo";
import { startTestDemo } from "../../testkit/demo-browser";
import { onPostgres } from "../../testkit/test-database";
import { openSecret, sealSecret, SecretUnreadableError } from "../../app/secret-box.server";
import prisma from "../../app/models/db.server";
import * as settings from "../../app/shop/save-settings.server";
import { adminFor } from "../../app/shopify/admin-auth.server";

let demo: RunningDemo;
let admin: Awaited<ReturnType<typeof adminFor>>;

beforeAll(async () => {
  demo = await startTestDemo({ products: 20 });
  await demo.firstSync;
  admin = await adminFor(DEMO_SHOP);
}, 180_000);

afterAll(async () => {
  await demo?.close();
});

/**
 * What the database holds: SQLite's file and its write-ahead log (where the latest writes live
 * until checkpointed), or on PostgreSQL every shop row as the server returns it.
 */
async function storedBytes(): Promise<Buffer[]> {
  if (onPostgres()) {
    const rows = await prisma.$queryRawUnsafe<{ row: string }[]>(
      `SELECT s::text AS row FROM "Shop" s`,
    );
    expect(rows.length).toBeGreaterThan(0);
    return rows.map(({ row }) => Buffer.from(row));
  }
  const path = demo.databaseUrl.replace(/^file:/, "");
  const files = [path, `${path}-wal`].filter((file) => existsSync(file));
  expect(files.length).toBeGreaterThan(0);
  return files.map((file) => readFileSync(file));
}

const save = (secretKey: string, publishableKey = "svc_pk_test_starter") =>
  settings.saveSettings(DEMO_SHOP, admin, {
    secretKey,
    publishableKey,
    workspaceOverride: "",
    syncProducts: true,
    syncPages: true,
    syncArticles: true,
  });

const problemsOf = async (secretKey: string, publishableKey?: string) => {
  const result = await save(secretKey, publishableKey);
  return result.ok ? [] : result.problems.map((p) => `${p.field}: ${p.message}`);
};

describe("Settings: the service's keys", () => {
  it("refuses keys that do not work, saying exactly what is wrong, and changes nothing", async () => {
    const before = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: DEMO_SHOP } });
    expect(await problemsOf("svc_sk_test_revoked")).toEqual([
      "secretKey: The service does not accept this key: it is revoked, expired or mistyped. Copy it again from your service account.",
    ]);
    expect(await problemsOf("svc_pk_test_starter")).toEqual([
      "secretKey: This is a publishable key (svc_pk_…); the secret key starts with svc_sk_.",
    ]);
    expect(await problemsOf("sk_live_123")).toEqual([
      "secretKey: This is not a key of the search service: the secret key starts with svc_sk_.",
    ]);
    // Malformed keys are named as such, and never sent: no request reaches the service.
    const requestsBefore = demo.emulator.state.requests().length;
    const malformed = (name: string) =>
      `This ${name} is malformed: a key is one line of at most 256 letters, digits and signs, without spaces or line breaks. Copy it again from your service account.`;
    expect(await problemsOf(`svc_sk_${"a".repeat(200_000)}`, "svc_pk_test starter")).toEqual([
      `secretKey: ${malformed("secret key")}`,
      `publishableKey: ${malformed("publishable key")}`,
    ]);
    expect(await problemsOf("svc_sk_test_\r\nstarter", `svc_pk_${"b".repeat(300)}`)).toEqual([
      `secretKey: ${malformed("secret key")}`,
      `publishableKey: ${malformed("publishable key")}`,
    ]);
    expect(demo.emulator.state.requests().length).toBe(requestsBefore);
    expect(await problemsOf("svc_sk_test_starter", "svc_sk_test_starter")).toEqual([
      "publishableKey: This is a secret key (svc_sk_…); the publishable key starts with svc_pk_.",
    ]);
    expect(await problemsOf("svc_sk_test_inactive")).toEqual([
      "secretKey: This key's subscription is inactive. Reactivate it in your service account.",
    ]);
    const trial = await save("svc_sk_test_trial_expired");
    expect(trial.ok).toBe(false);
    expect(!trial.ok && trial.problems[0]).toMatchObject({
      message: expect.stringMatching(/free trial has ended/),
      url: expect.stringMatching(/^https:/),
    });

    const after = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: DEMO_SHOP } });
    expect(after.secretKeyCiphertext).toBe(before.secretKeyCiphertext);
    expect(after.tier).toBe("professional");
  });

  it("saves working keys with the secret encrypted: not in the database, only its last four shown", async () => {
    const result = await save("svc_sk_test_starter");
    expect(result).toMatchObject({ ok: true, tier: "starter", firstSyncStarted: false });
    const shop = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: DEMO_SHOP } });
    expect(shop.secretKeyLast4).toBe("rter");
    expect(shop.secretKeyCiphertext).not.toContain("svc_sk");
    const contents = await storedBytes();
    for (const file of contents) {
      expect(file.includes("svc_sk_test_starter")).toBe(false);
      expect(file.includes(Buffer.from("svc_sk_test_starter", "utf16le"))).toBe(false);
    }
    // What was read is where the key lives: its sealed form is there.
    expect(contents.some((file) => file.includes(shop.secretKeyCiphertext!))).toBe(true);

    // The storefront gets the publishable key and never the secret one.
    const metafield = demo.shopify.state.metafields().find((m) => m.key === "config");
    expect(JSON.parse(metafield!.value)).toMatchObject({
      publishableKey: "svc_pk_test_starter",
      workspaceId: demo.workspaceId,
    });
    expect(metafield!.value).not.toContain("svc_sk_");
  });

  it("keeps the stored secret when the field is left empty", async () => {
    expect(await save("")).toMatchObject({ ok: true, tier: "starter" });
  });

  it("sealed secrets open only with the right key and are refused when tampered with", () => {
    const key = Buffer.alloc(32, 1);
    const sealed = sealSecret("svc_sk_live_abc", key);
    expect(openSecret(sealed, key)).toBe("svc_sk_live_abc");
    expect(() => openSecret(sealed, Buffer.alloc(32, 2))).toThrow(SecretUnreadableError);
    const parts = sealed.split(".");
    parts[3] = Buffer.from("svc_sk_live_abd").toString("base64url");
    expect(() => openSecret(parts.join("."), key)).toThrow(SecretUnreadableError);
  });
});
