import { describe, expect, it } from "vitest";
import { signWebhookBody, verifyWebhookSignature } from "../../app/index-service/webhook-signature";

// The HMAC-SHA256 test vector everyone knows (key "key").
const BODY = "The quick brown fox jumps over the lazy dog";
const SIGNATURE = "sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8";

describe("webhook signatures", () => {
  it("signs as sha256= and the lower-case hex HMAC-SHA256 of the raw body", () => {
    expect(signWebhookBody("key", BODY)).toBe(SIGNATURE);
    expect(signWebhookBody("key", Buffer.from(BODY))).toBe(SIGNATURE);
  });

  it("accepts the right signature", () => {
    expect(verifyWebhookSignature("key", BODY, SIGNATURE)).toBe(true);
    expect(verifyWebhookSignature("key", Buffer.from(BODY), [SIGNATURE])).toBe(true);
  });

  it.each([
    ["another secret", "other", BODY, SIGNATURE],
    ["a changed body", "key", `${BODY}.`, SIGNATURE],
    ["a re-serialised body", "key", JSON.stringify({ a: 1 }), signWebhookBody("key", '{"a": 1}')],
    ["no header", "key", BODY, undefined],
    ["an empty header", "key", BODY, ""],
    ["no sha256= prefix", "key", BODY, SIGNATURE.slice("sha256=".length)],
    ["a truncated digest", "key", BODY, SIGNATURE.slice(0, -2)],
    ["a longer digest", "key", BODY, `${SIGNATURE}00`],
    ["another algorithm", "key", BODY, SIGNATURE.replace("sha256", "sha1")],
    ["an empty secret", "", BODY, signWebhookBody("", BODY)],
  ])("rejects %s without throwing", (_label, secret, body, header) => {
    expect(verifyWebhookSignature(secret, body, header)).toBe(false);
  });
});
