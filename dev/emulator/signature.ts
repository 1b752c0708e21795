/** Spec §6.2: `sha256=` + lower-case hex HMAC-SHA256 of the raw body, keyed with the secret. */
import { createHmac } from "node:crypto";

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}
