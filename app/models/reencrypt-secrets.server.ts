import prisma from "./db.server";
import { openSecretWithKey, sealSecret, SecretUnreadableError } from "../secret-box.server";

export interface ReencryptionReport {
  /** Sealed with a previous key, now sealed with the current one. */
  resealed: number;
  /** Already sealed with the current key. */
  current: number;
  /** Opened by no key given: those shops must enter their key again. */
  unreadable: number;
}

/**
 * The middle step of a key rotation: every stored secret (shops' service keys, their former
 * place's key, the service-webhook signing secrets, the app's own keys) that opens only with a previous key is sealed
 * again with the current one. `keys[0]` is the current key. Safe to run again at any time.
 */
export async function reencryptSecrets(keys: readonly Buffer[]): Promise<ReencryptionReport> {
  const report: ReencryptionReport = { resealed: 0, current: 0, unreadable: 0 };
  const reseal = (sealed: string): string | null => {
    try {
      const { plaintext, keyIndex } = openSecretWithKey(sealed, keys);
      if (keyIndex === 0) {
        report.current += 1;
        return null;
      }
      report.resealed += 1;
      return sealSecret(plaintext, keys[0]!);
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      report.unreadable += 1;
      return null;
    }
  };
  for (const shop of await prisma.shop.findMany()) {
    const secret = shop.secretKeyCiphertext ? reseal(shop.secretKeyCiphertext) : null;
    const former = shop.formerSecretKeyCiphertext ? reseal(shop.formerSecretKeyCiphertext) : null;
    if (secret || former) {
      await prisma.shop.update({
        where: { shopDomain: shop.shopDomain },
        data: {
          ...(secret ? { secretKeyCiphertext: secret } : {}),
          ...(former ? { formerSecretKeyCiphertext: former } : {}),
        },
      });
    }
  }
  for (const hook of await prisma.serviceWebhook.findMany()) {
    const secret = reseal(hook.secretCiphertext);
    if (secret) {
      await prisma.serviceWebhook.update({
        where: { shopDomain: hook.shopDomain },
        data: { secretCiphertext: secret },
      });
    }
  }
  for (const appKey of await prisma.appKey.findMany()) {
    const ciphertext = reseal(appKey.ciphertext);
    if (ciphertext) {
      await prisma.appKey.update({ where: { name: appKey.name }, data: { ciphertext } });
    }
  }
  return report;
}
