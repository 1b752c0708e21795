import { describe, expect, it } from "vitest";
import { ConfigurationError, readConfig } from "../app/config.server";

const valid = {
  NODE_ENV: "production",
  SHOPIFY_API_KEY: "key",
  SHOPIFY_API_SECRET: "secret",
  SHOPIFY_APP_URL: "https://app.example.com",
  INDEX_API_URL: "https://api.service.example",
  // `openssl rand -base64 32`
  ENCRYPTION_KEY: "q0Vn4xV2mO7XWc8r1sJ3yZk9T5bQ+fHh6pLuA2dEiGw=",
};

describe("configuration", () => {
  it("reads a complete production configuration", () => {
    const config = readConfig(valid);
    expect(config.appUrl).toBe("https://app.example.com");
    expect(config.encryptionKey).toHaveLength(32);
    expect(config.databaseUrl).toBe("file:./prisma/app.db");
  });

  it("lists every problem at once, each with how to fix it", () => {
    let error: unknown;
    try {
      readConfig({
        NODE_ENV: "production",
        SHOPIFY_APP_URL: "not a url",
        ENCRYPTION_KEY: "short",
        DATABASE_URL: "mysql://u:pw@h/db",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    const { problems, message } = error as ConfigurationError;
    expect(problems).toHaveLength(6);
    expect(message).toMatch(/SHOPIFY_API_KEY is missing: .*Partner Dashboard/);
    expect(message).toMatch(/SHOPIFY_API_SECRET is missing/);
    expect(message).toMatch(/SHOPIFY_APP_URL must be an http\(s\) URL, got "not a url"/);
    expect(message).toMatch(/ENCRYPTION_KEY must be 32 bytes.*openssl rand -base64 32/);
    expect(message).toMatch(/INDEX_API_URL is missing/);
    expect(message).toMatch(/DATABASE_URL must be a SQLite file URL .* or a PostgreSQL URL/);
    expect(message).not.toContain(":pw@");
  });

  it("refuses plain http for the app in production", () => {
    expect(() => readConfig({ ...valid, SHOPIFY_APP_URL: "http://app.example.com" })).toThrow(
      /https in production/,
    );
  });

  it("outside production, works with the local emulator and a development encryption key", () => {
    const { NODE_ENV: _n, INDEX_API_URL: _i, ENCRYPTION_KEY: _e, ...rest } = valid;
    const config = readConfig({ ...rest, NODE_ENV: "development" });
    expect(config.indexApiUrl).toBe("http://127.0.0.1:4010");
    expect(config.encryptionKey).toHaveLength(32);
  });
});

describe("SYNC_RUNS_KEPT", () => {
  it("keeps 20 finished runs per shop unless told otherwise", () => {
    expect(readConfig(valid).syncHistory.runsKept).toBe(20);
    expect(readConfig({ ...valid, SYNC_RUNS_KEPT: " 5 " }).syncHistory.runsKept).toBe(5);
  });

  it("refuses what is not a whole number of runs from 1 to 1000", () => {
    for (const bad of ["0", "-3", "1.5", "abc", "1e9", "Infinity"]) {
      expect(() => readConfig({ ...valid, SYNC_RUNS_KEPT: bad })).toThrow(
        `SYNC_RUNS_KEPT must be a whole number of runs from 1 to 1000, got "${bad}"`,
      );
    }
  });
});

describe("METRICS_TOKEN", () => {
  it("leaves /metrics off when unset or blank, and takes a long token", () => {
    expect(readConfig(valid).metricsToken).toBeUndefined();
    expect(readConfig({ ...valid, METRICS_TOKEN: "  " }).metricsToken).toBeUndefined();
    const token = "0123456789abcdef0123456789abcdef";
    expect(readConfig({ ...valid, METRICS_TOKEN: ` ${token} ` }).metricsToken).toBe(token);
  });

  it("refuses a short token or one with spaces, without printing it", () => {
    for (const bad of ["short-secret", "a token with spaces inside it", "tökentökentökentöken"]) {
      let message = "";
      try {
        readConfig({ ...valid, METRICS_TOKEN: bad });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigurationError);
        message = (error as Error).message;
      }
      expect(message).toContain("METRICS_TOKEN must be at least 16");
      expect(message).not.toContain(bad);
    }
  });
});

describe("METRICS_SHOP_LABELS", () => {
  const problemOf = (value: string): string => {
    try {
      readConfig({ ...valid, METRICS_SHOP_LABELS: value });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return (error as Error).message;
    }
    return "";
  };

  it("names no shop when unset, and takes a few myshopify domains, once each", () => {
    expect(readConfig(valid).metricsShopLabels).toEqual([]);
    expect(
      readConfig({
        ...valid,
        METRICS_SHOP_LABELS: " A-Shop.myshopify.com, b.myshopify.com,a-shop.myshopify.com,",
      }).metricsShopLabels,
    ).toEqual(["a-shop.myshopify.com", "b.myshopify.com"]);
  });

  it("refuses a value that is not a myshopify domain, naming it", () => {
    for (const bad of [
      "shop.example.com",
      "https://a.myshopify.com",
      "a.myshopify.com;b.myshopify.com",
    ]) {
      const message = problemOf(bad);
      expect(message).toContain("METRICS_SHOP_LABELS must list shops' myshopify domains");
    }
    expect(problemOf("a.myshopify.com,www.shop.com")).toContain('"www.shop.com"');
  });

  it("refuses more than 20 shops, saying how many are taken", () => {
    const shops = (n: number) =>
      Array.from({ length: n }, (_, i) => `shop-${i}.myshopify.com`).join(",");
    expect(readConfig({ ...valid, METRICS_SHOP_LABELS: shops(20) }).metricsShopLabels).toHaveLength(
      20,
    );
    expect(problemOf(shops(21))).toContain(
      "METRICS_SHOP_LABELS names 21 shops, at most 20 are taken",
    );
  });
});

describe("production refuses what would expose the shops' secret keys", () => {
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      readConfig(env);
      return [];
    } catch (error) {
      return (error as ConfigurationError).problems;
    }
  };

  it.each(["http://10.0.0.5", "http://api.service.example", "http://192.168.1.2:4010/v1"])(
    "plain http to %s",
    (url) => {
      expect(problemsOf({ ...valid, INDEX_API_URL: url })).toEqual([
        expect.stringMatching(/INDEX_API_URL must use https in production/),
      ]);
    },
  );

  it.each(["http://127.0.0.1:4010", "http://localhost:4010", "http://[::1]:4010"])(
    "but allows plain http to loopback (%s)",
    (url) => {
      expect(problemsOf({ ...valid, INDEX_API_URL: url })).toEqual([]);
    },
  );

  it.each([
    ["all zeros", Buffer.alloc(32).toString("base64")],
    ["all zeros in hex", "0".repeat(64)],
    ["a repeated byte", Buffer.alloc(32, 7).toString("base64")],
    ["a repeated pattern", Buffer.from("0123456789abcdef0123456789abcdef").toString("hex")],
    ["a placeholder", Buffer.from("change-me-to-a-real-key-32-bytes").toString("base64")],
    ["the development key", Buffer.alloc(32, "catalog-chat-development-key").toString("base64")],
  ])("a weak key: %s", (_what, key) => {
    expect(problemsOf({ ...valid, ENCRYPTION_KEY: key })).toEqual([
      expect.stringMatching(/ENCRYPTION_KEY is not a usable secret: .*openssl rand/),
    ]);
  });

  it("every problem in one message", () => {
    const problems = problemsOf({
      ...valid,
      INDEX_API_URL: "http://10.0.0.5",
      ENCRYPTION_KEY: "0".repeat(64),
      SHOPIFY_APP_URL: "http://app.example.com",
    });
    expect(problems).toHaveLength(3);
  });

  it("outside production the development defaults still work", () => {
    const env = { ...valid, NODE_ENV: "development", INDEX_API_URL: "http://10.0.0.5" };
    expect(problemsOf({ ...env, ENCRYPTION_KEY: "0".repeat(64) })).toEqual([]);
  });
});

describe("a configuration message never shows a credential", () => {
  const messageOf = (env: Record<string, string>): string => {
    try {
      readConfig(env);
    } catch (error) {
      return (error as ConfigurationError).message;
    }
    throw new Error("the configuration was accepted");
  };

  it.each([
    ["INDEX_API_URL", "http://svc-user:hunter2@api.service.example/v1?token=sk_live_9&x=1"],
    ["INDEX_API_URL", "ftp://svc-user:hunter2@api.service.example/?api_key=sk_live_9"],
    ["INDEX_API_URL", "svc-user:hunter2@api.service.example?token=sk_live_9"],
    ["SHOPIFY_APP_URL", "ws://admin:hunter2@app.example.com/#sk_live_9"],
    ["DATABASE_URL", "mysql://u:hunter2@h/db?password=sk_live_9"],
  ])("%s = %s", (name, value) => {
    const message = messageOf({ ...valid, [name]: value });
    expect(message).toContain(name);
    expect(message).not.toMatch(/hunter2|sk_live_9|svc-user/);
    expect(message).toMatch(/\*\*\*/);
  });
});

describe("the offline demo's configuration", () => {
  it("can never be switched on in production", () => {
    expect(() =>
      readConfig({
        ...valid,
        DEMO_SHOP: "demo.myshopify.com",
        DEMO_ADMIN_GRAPHQL_URL: "http://127.0.0.1:4020/admin/api/2026-10/graphql.json",
      }),
    ).toThrow(/the offline demo can never run with NODE_ENV=production/);
  });

  it("only talks to a fake Admin API on loopback", () => {
    const env = { ...valid, NODE_ENV: "development", DEMO_SHOP: "demo.myshopify.com" };
    expect(() =>
      readConfig({
        ...env,
        DEMO_ADMIN_GRAPHQL_URL: "https://demo.myshopify.com/admin/api/2026-10/graphql.json",
      }),
    ).toThrow(/DEMO_ADMIN_GRAPHQL_URL must be the local fake Admin API on loopback/);
    expect(
      readConfig({
        ...env,
        DEMO_ADMIN_GRAPHQL_URL: "http://127.0.0.1:4020/admin/api/2026-10/graphql.json",
      }).demo,
    ).toMatchObject({
      shopDomain: "demo.myshopify.com",
    });
  });
});
