/**
 * ENCRYPTION_KEY rotation: with the new key and the old one both given, every stored secret still
 * opens and `npm run secrets:reencrypt`'s function seals them again with the new key; a secret no
 * key opens never makes Settings fail (it asks for the key again) and pauses the shop's sync.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import prisma from "../../app/models/db.server";
import * as box from "../../app/secret-box.server";
import { readConfig, config } from "../../app/config.server";
import { serviceClientFor } from "../../app/shop/service-keys.server";
import { reencryptSecrets } from "../../app/models/reencrypt-secrets.server";
import { saveSettings, UNREADABLE_SECRET_MESSAGE } from "../../app/shop/save-settings.server";
import { stopReasonOf, isPausingStop } from "../../app/shop/pause.server";

const OLD = randomBytes(32);
const NEW = randomBytes(32);
const SHOP = "rotating.myshopify.com";

beforeAll(async () => {
  await prepareAppEnvironment({
    BACKGROUND_WORK: "off",
    ENCRYPTION_KEY: NEW.toString("base64"),
    ENCRYPTION_KEY_PREVIOUS: OLD.toString("hex"),
  });
});

async function shopSealedWith(key: Buffer, secret = "svc_sk_live_rotating_1234") {
  await prisma.shop.deleteMany();
  await prisma.shop.create({
    data: {
      shopDomain: SHOP,
      primaryDomain: "rotating.example",
      workspaceId: "rotating-example",
      secretKeyCiphertext: box.sealSecret(secret, key),
      secretKeyLast4: "1234",
      publishableKey: "svc_pk_x",
    },
  });
}

describe("ENCRYPTION_KEY rotation", () => {
  it("reads ENCRYPTION_KEY_PREVIOUS, and refuses a malformed one", async () => {
    const config = readConfig(process.env);
    expect(config.decryptionKeys.map((k) => k.toString("hex"))).toEqual([
      NEW.toString("hex"),
      OLD.toString("hex"),
    ]);
    expect(() => readConfig({ ...process.env, ENCRYPTION_KEY_PREVIOUS: "short" })).toThrow(
      /ENCRYPTION_KEY_PREVIOUS must be 32 bytes/,
    );
  });

  it("opens a secret sealed with the old key, and re-encrypts it with the new one", async () => {
    await shopSealedWith(OLD);
    const shop = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(() => serviceClientFor(shop)).not.toThrow();

    expect(await reencryptSecrets(config().decryptionKeys)).toEqual({
      resealed: 1,
      current: 0,
      unreadable: 0,
    });
    const after = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    // Now the new key alone opens it: the old one can be dropped.
    expect(box.openSecret(after.secretKeyCiphertext!, [NEW])).toBe("svc_sk_live_rotating_1234");
    expect(() => box.openSecret(after.secretKeyCiphertext!, [OLD])).toThrow();
    expect((await reencryptSecrets(config().decryptionKeys)).resealed).toBe(0);
  });

  it("re-seals the key of the redaction hashes, so redactions made before the rotation still hold", async () => {
    const hashKey = randomBytes(32).toString("hex");
    await prisma.appKey.create({
      data: { name: "redaction", ciphertext: box.sealSecret(hashKey, OLD) },
    });
    expect((await reencryptSecrets(config().decryptionKeys)).resealed).toBe(1);
    const after = await prisma.appKey.findUniqueOrThrow({ where: { name: "redaction" } });
    expect(box.openSecret(after.ciphertext, [NEW])).toBe(hashKey);
    await prisma.appKey.deleteMany();
  });

  it("Settings saved with the key field empty asks for the key again instead of failing", async () => {
    await shopSealedWith(randomBytes(32));
    const result = await saveSettings(SHOP, {} as never, {
      secretKey: "",
      publishableKey: "svc_pk_x",
      workspaceOverride: "",
      syncProducts: true,
      syncPages: true,
      syncArticles: true,
    });
    expect(result).toEqual({
      ok: false,
      problems: [{ field: "secretKey", message: UNREADABLE_SECRET_MESSAGE }],
    });
  });

  it("a key no given key opens pauses the shop's sync, asking for the key", async () => {
    const reason = stopReasonOf(new box.SecretUnreadableError());
    expect(reason.pausesShop).toBe(true);
    expect(isPausingStop(reason.code)).toBe(true);
    expect(reason.action).toMatch(/Enter your secret key again in Settings/);
  });
});
