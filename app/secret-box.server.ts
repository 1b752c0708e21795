import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1";

/**
 * Authenticated encryption (AES-256-GCM) of a secret for storage: `v1.<iv>.<tag>.<ciphertext>`,
 * base64url parts. A tampered value or a wrong key fails to open rather than yielding garbage.
 */
export function sealSecret(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

export class SecretUnreadableError extends Error {
  constructor() {
    super(
      "The stored secret key cannot be decrypted with this ENCRYPTION_KEY; enter the key again in Settings.",
    );
    this.name = "SecretUnreadableError";
  }
}

/**
 * Opens a sealed secret with the first of `keys` that opens it (during a key rotation, the new key
 * first and the old ones after); SecretUnreadableError when none does.
 */
export function openSecret(sealed: string, keys: Buffer | readonly Buffer[]): string {
  const opened = openSecretWithKey(sealed, Array.isArray(keys) ? keys : [keys as Buffer]);
  return opened.plaintext;
}

/** Like openSecret, also telling which key (by position) opened it: 0 is the current key. */
export function openSecretWithKey(
  sealed: string,
  keys: readonly Buffer[],
): { plaintext: string; keyIndex: number } {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined)
    throw new SecretUnreadableError();
  for (const [keyIndex, key] of keys.entries()) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      const plaintext = Buffer.concat([
        decipher.update(Buffer.from(ciphertext, "base64url")),
        decipher.final(),
      ]).toString("utf8");
      return { plaintext, keyIndex };
    } catch {
      // not this key
    }
  }
  throw new SecretUnreadableError();
}
