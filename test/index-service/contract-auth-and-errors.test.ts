/**
 * Contract: the client against the emulator over real HTTP — keys (§5), workspaces (§5.6–7),
 * CORS, and every typed error (§7 and service-gaps).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { IndexServiceClient } from "../../app/index-service/client";
import {
  BadRequestError,
  ForbiddenError,
  IndexServiceError,
  NetworkError,
  NotFoundError,
  PayloadTooLargeError,
  QuotaExceededError,
  RateLimitedError,
  RequestAbortedError,
  ServerError,
  SubscriptionInactiveError,
  TimeoutError,
  TrialExpiredError,
  UnauthorizedError,
  WorkspaceRequiredError,
} from "../../app/index-service/errors";
import { startEmulator, type RunningEmulator } from "../../dev/emulator/server";
import { KEYS, caught, clientFor, product, products } from "./helpers";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ tokenDelayMs: 0 });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => {
  emulator.state.reset();
});

const shop = (key: string = KEYS.personal) =>
  clientFor(emulator, key, { workspaceId: "shop.example.com" });

function rawFetch(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  return fetch(`${emulator.url}${path}`, init);
}

describe("authentication and key types (§5)", () => {
  it("accepts a secret key for reads and writes", async () => {
    const client = shop();
    await client.upsertProduct(product("p1", "Mug"));
    expect((await client.getProduct("p1")).data).toMatchObject({ id: "p1", name: "Mug" });
    expect((await client.search("mug")).data.results.map((hit) => hit.id)).toEqual(["p1"]);
  });

  it("lets a publishable key search, chat and give feedback", async () => {
    await shop().upsertProduct(product("p1", "Mug"));
    const browser = shop(KEYS.personalPublishable);
    expect(browser.keyType).toBe("publishable");
    expect((await browser.search("mug")).data.total).toBe(1);
    expect((await browser.chat({ message: "mug", threadId: "web_1" })).data.products).toHaveLength(
      1,
    );
    await browser.submitFeedback({ threadId: "web_1", rating: "positive" });
  });

  it("refuses a publishable key on a server-only operation with 403 FORBIDDEN", async () => {
    const browser = shop(KEYS.personalPublishable);
    for (const call of [
      () => browser.upsertProduct(product("p1", "Mug")),
      () => browser.bulkUpsertProducts([product("p1", "Mug")]),
      () => browser.deleteProduct("p1"),
      () => browser.listWebhooks(),
    ]) {
      const error = await caught(call);
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error).toMatchObject({ status: 403, code: "FORBIDDEN", retryable: false });
    }
    expect(emulator.state.workspaces()).toEqual([]);
  });

  it("answers 401 UNAUTHORIZED for a revoked, an unknown or a malformed key", async () => {
    for (const key of [KEYS.revoked, "svc_sk_test_nobody", "not-a-key"]) {
      const error = await caught(() => shop(key).search("mug"));
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED", retryable: false });
    }
    for (const authorization of [undefined, "Basic c3ZjOng=", "Bearer", "Bearer a b"]) {
      const response = await rawFetch("/products/search", {
        method: "POST",
        headers: authorization ? { Authorization: authorization } : {},
        body: JSON.stringify({ text: "mug" }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: { message: expect.any(String), code: "UNAUTHORIZED" },
      });
    }
  });

  it("refuses a key revoked at runtime, and accepts it again once restored", async () => {
    const client = shop(KEYS.starter);
    await client.search("mug");
    emulator.state.revokeKey(KEYS.starter);
    expect(await caught(() => client.search("mug"))).toBeInstanceOf(UnauthorizedError);
    emulator.state.restoreKey(KEYS.starter);
    await expect(client.search("mug")).resolves.toMatchObject({ status: 200 });
  });

  it("answers 402 TRIAL_EXPIRED with the upgrade URL and the trial's end", async () => {
    const error = await caught(() => shop(KEYS.trialExpired).upsertProduct(product("p1", "Mug")));
    expect(error).toBeInstanceOf(TrialExpiredError);
    const trial = error as TrialExpiredError;
    expect(trial).toMatchObject({ status: 402, code: "TRIAL_EXPIRED", retryable: false });
    expect(trial.upgradeUrl).toMatch(/^https:\/\//);
    expect(Number.isNaN(Date.parse(trial.trialEndedAt ?? ""))).toBe(false);
  });

  it("answers 403 SUBSCRIPTION_INACTIVE for an inactive subscription", async () => {
    const error = await caught(() => shop(KEYS.inactive).search("mug"));
    expect(error).toBeInstanceOf(SubscriptionInactiveError);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, code: "SUBSCRIPTION_INACTIVE" });
  });

  it("lets a subscription become inactive and active again", async () => {
    const client = shop(KEYS.professional);
    emulator.state.setAccount("professional", { status: "inactive" });
    expect(await caught(() => client.search("mug"))).toBeInstanceOf(SubscriptionInactiveError);
    emulator.state.setAccount("professional", { status: "active" });
    await expect(client.search("mug")).resolves.toMatchObject({ status: 200 });
  });

  it("never logs a whole key in the emulator's request log", async () => {
    await shop().search("mug");
    await caught(() => shop(KEYS.revoked).search("mug"));
    const log = JSON.stringify(emulator.state.requests());
    expect(log).not.toContain(KEYS.personal);
    expect(log).not.toContain(KEYS.revoked);
    expect(emulator.state.requests()).toEqual([
      expect.objectContaining({ path: "/products/search", keyType: "secret", status: 200 }),
      expect.objectContaining({ path: "/products/search", keyType: "invalid", status: 401 }),
    ]);
  });
});

describe("workspace rules (§4.1–2, §5.6–7)", () => {
  it("refuses a content write without a workspace before sending anything", async () => {
    const client = clientFor(emulator, KEYS.personal);
    for (const call of [
      () => client.upsertProduct(product("p1", "Mug")),
      () => client.bulkUpsertProducts([product("p1", "Mug")]),
      () => client.deleteProduct("p1"),
      () => client.bulkDeleteProducts(["p1"]),
      () => client.upsertPost({ id: "a1", title: "Guide" }),
      () => client.bulkUpsertPosts([{ id: "a1", title: "Guide" }]),
      () => client.deletePost("a1"),
      () => client.bulkDeletePosts(["a1"]),
    ]) {
      const error = await caught(call);
      expect(error).toBeInstanceOf(WorkspaceRequiredError);
      expect(error).toMatchObject({ code: "WORKSPACE_REQUIRED", requestSent: false });
    }
    expect(emulator.state.requests()).toEqual([]);
  });

  it("gets 400 WORKSPACE_REQUIRED from the service when the header is missing", async () => {
    const stripping: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.delete("X-Workspace-ID");
      return fetch(input, { ...init, headers });
    };
    const client = clientFor(emulator, KEYS.personal, {
      workspaceId: "shop.example.com",
      fetch: stripping,
    });
    const error = await caught(() => client.upsertProduct(product("p1", "Mug")));
    expect(error).toBeInstanceOf(WorkspaceRequiredError);
    expect(error).toMatchObject({ status: 400, code: "WORKSPACE_REQUIRED", requestSent: true });
  });

  it("sends the workspace id made from a domain on writes, search and chat", async () => {
    const client = clientFor(emulator, KEYS.personal, {
      workspaceId: "https://Shop.Example.com/x",
    });
    expect(client.workspaceId).toBe("shop-example-com");
    await client.upsertProduct(product("p1", "Mug"));
    await client.search("mug");
    await client.chat({ message: "mug", threadId: "web_1" });
    await client.withWorkspace("Other.Example.com").search("mug");
    expect(emulator.state.requests().map((entry) => entry.workspaceId)).toEqual([
      "shop-example-com",
      "shop-example-com",
      "shop-example-com",
      "other-example-com",
    ]);
  });

  it("keeps workspaces apart, within an account and between accounts", async () => {
    await shop().upsertProduct(product("p1", "Blue mug"));
    const other = clientFor(emulator, KEYS.personal, { workspaceId: "other.example.com" });
    await other.upsertProduct(product("p2", "Red mug"));
    await clientFor(emulator, KEYS.starter, { workspaceId: "shop.example.com" }).upsertProduct(
      product("p3", "Green mug"),
    );

    expect((await shop().search("mug")).data.results.map((hit) => hit.id)).toEqual(["p1"]);
    expect((await other.search("mug")).data.results.map((hit) => hit.id)).toEqual(["p2"]);
    expect(await caught(() => other.getProduct("p1"))).toBeInstanceOf(NotFoundError);
    const starter = clientFor(emulator, KEYS.starter, { workspaceId: "shop.example.com" });
    expect((await starter.search("mug")).data.results.map((hit) => hit.id)).toEqual(["p3"]);
    // Without a workspace, a search covers the account's workspaces, never another account's.
    const unscoped = clientFor(emulator, KEYS.personal);
    expect((await unscoped.search("mug")).data.results.map((hit) => hit.id).sort()).toEqual([
      "p1",
      "p2",
    ]);
  });

  it("takes a browser's workspace from Origin when a publishable key sends no X-Workspace-ID", async () => {
    await shop().upsertProduct(product("p1", "Blue mug"));
    await clientFor(emulator, KEYS.personal, { workspaceId: "other.example.com" }).upsertProduct(
      product("p2", "Red mug"),
    );
    const response = await rawFetch("/products/search", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${KEYS.personalPublishable}`,
        "Content-Type": "application/json",
        Origin: "https://shop.example.com",
      },
      body: JSON.stringify({ text: "mug" }),
    });
    expect(response.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    const body = (await response.json()) as { data: { results: Array<{ id: string }> } };
    expect(body.data.results.map((hit) => hit.id)).toEqual(["p1"]);
  });
});

describe("CORS", () => {
  it("answers a preflight allowing Authorization, Content-Type and X-Workspace-ID", async () => {
    const response = await rawFetch("/chat", {
      method: "OPTIONS",
      headers: {
        Origin: "https://shop.example.com",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, x-workspace-id",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    const allowed = (response.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    for (const header of ["authorization", "content-type", "x-workspace-id"]) {
      expect(allowed).toContain(header);
    }
  });
});

describe("errors (§7)", () => {
  it("400 for a validation error, with the §7 body", async () => {
    const error = await caught(() => shop().upsertProduct({ id: "p1" } as never));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR", retryable: false });
    expect((error as Error).message).toContain("name");
  });

  it("400 for a body that is not JSON", async () => {
    const response = await rawFetch("/products", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${KEYS.personal}`,
        "Content-Type": "application/json",
        "X-Workspace-ID": "shop-example-com",
      },
      body: '{"id": "p1", ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { message: expect.any(String), code: expect.any(String) },
    });
  });

  it("404 for an unknown item and an unknown route", async () => {
    const error = await caught(() => shop().getProduct("nope"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, retryable: false });
    const response = await rawFetch("/nothing-here", {
      headers: { Authorization: `Bearer ${KEYS.personal}` },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("413 for a bulk request over the limit", async () => {
    const error = await caught(() => shop().bulkUpsertProducts(products(101)));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error).toMatchObject({ status: 413, retryable: false });
  });

  it("429 with retryAfter in seconds; the larger of body and Retry-After header wins", async () => {
    emulator.state.injectFault({ status: 429, retryAfter: 5, retryAfterHeader: 30 });
    const headerWins = await caught(() => shop().search("mug"));
    expect(headerWins).toBeInstanceOf(RateLimitedError);
    expect(headerWins).toMatchObject({ status: 429, code: "RATE_LIMITED", retryable: true });
    expect((headerWins as RateLimitedError).retryAfterMs).toBe(30_000);

    emulator.state.injectFault({ status: 429, retryAfter: 40, retryAfterHeader: 2 });
    const bodyWins = (await caught(() => shop().search("mug"))) as RateLimitedError;
    expect(bodyWins.retryAfterMs).toBe(40_000);
    expect(bodyWins.retryAt).toBeGreaterThan(Date.now() + 30_000);
  });

  it("5xx as a retryable ServerError, then success once the fault is gone", async () => {
    emulator.state.injectFault({ status: 503, count: 2 });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await caught(() => shop().search("mug"));
      expect(error).toBeInstanceOf(ServerError);
      expect(error).toMatchObject({ status: 503, retryable: true });
    }
    await expect(shop().search("mug")).resolves.toMatchObject({ status: 200 });
  });

  it("faults can target one route only", async () => {
    emulator.state.injectFault({ status: 500, match: { method: "POST", path: "/products/bulk" } });
    await expect(shop().search("mug")).resolves.toMatchObject({ status: 200 });
    expect(await caught(() => shop().bulkUpsertProducts(products(2)))).toBeInstanceOf(ServerError);
    await expect(shop().bulkUpsertProducts(products(2))).resolves.toMatchObject({ status: 200 });
  });

  it("a dropped connection or a refused one is a retryable NetworkError", async () => {
    emulator.state.injectFault({ disconnect: true });
    const dropped = await caught(() => shop().search("mug"));
    expect(dropped).toBeInstanceOf(NetworkError);
    expect(dropped).toMatchObject({ status: 0, code: "NETWORK_ERROR", retryable: true });

    const closed = await startEmulator();
    const url = closed.url;
    await closed.close();
    const refused = await caught(() =>
      new IndexServiceClient({ baseUrl: url, apiKey: KEYS.personal }).search("mug"),
    );
    expect(refused).toBeInstanceOf(NetworkError);
  });

  it("no answer within the timeout is a retryable TimeoutError", async () => {
    emulator.state.injectFault({ delayMs: 60_000 });
    const client = clientFor(emulator, KEYS.personal, { timeoutMs: 100 });
    const error = await caught(() => client.search("mug"));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "TIMEOUT", retryable: true });
  });

  it("an abort by the caller is a RequestAbortedError, not a retryable one", async () => {
    emulator.state.injectFault({ delayMs: 60_000 });
    const controller = new AbortController();
    const pending = caught(() => shop().search("mug", { signal: controller.signal }));
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ retryable: false });
  });

  it("every error shares the base class with status, code and retryable", async () => {
    const error = await caught(() => shop(KEYS.revoked).search("mug"));
    expect(error).toBeInstanceOf(IndexServiceError);
    expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED", retryable: false });
  });

  it("quota errors are a ForbiddenError with code QUOTA_EXCEEDED", async () => {
    emulator.state.injectFault({ status: 403, code: "QUOTA_EXCEEDED" });
    const error = await caught(() => shop().search("mug"));
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).toBeInstanceOf(ForbiddenError);
  });
});

describe("the API key never shows in an error", () => {
  const secret = KEYS.personal;
  const leaks = (error: unknown) => {
    const text = [
      (error as Error).message,
      (error as Error).stack ?? "",
      JSON.stringify(error),
      String(error),
    ].join("\n");
    return text.includes(secret);
  };

  it("not in HTTP errors, even when the service echoes it", async () => {
    emulator.state.injectFault({ status: 500, message: `Bad key ${secret} here` });
    emulator.state.injectFault({ status: 429, message: `slow down, ${secret}` });
    emulator.state.injectFault({ status: 400, message: `${secret} is wrong` });
    const errors = [
      await caught(() => shop().search("mug")),
      await caught(() => shop().search("mug")),
      await caught(() => shop().search("mug")),
      await caught(() => shop().getProduct("missing")),
      await caught(() => shop().bulkUpsertProducts(products(101))),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(IndexServiceError);
      expect(leaks(error)).toBe(false);
    }
  });

  it("not in network and timeout errors, even when the transport names it", async () => {
    const leaky: typeof fetch = () =>
      Promise.reject(new Error(`connect failed for Bearer ${secret}`));
    const network = await caught(() => clientFor(emulator, secret, { fetch: leaky }).search("mug"));
    expect(network).toBeInstanceOf(NetworkError);
    expect(leaks(network)).toBe(false);

    emulator.state.injectFault({ delayMs: 60_000 });
    const timeout = await caught(() =>
      clientFor(emulator, secret, { timeoutMs: 50 }).search("mug"),
    );
    expect(leaks(timeout)).toBe(false);
  });

  it("not when the client itself is printed", () => {
    const client = shop();
    expect(JSON.stringify(client)).not.toContain(secret);
  });
});
