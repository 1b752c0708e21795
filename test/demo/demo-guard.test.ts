import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { DemoRefusedError, startDemo } from "../../dev/demo/admin-demo";

const nodeEnv = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = nodeEnv;
});

describe("the demo refuses to start where it could be reached or deployed", () => {
  it("refuses NODE_ENV=production", async () => {
    process.env.NODE_ENV = "production";
    await expect(startDemo()).rejects.toThrow(DemoRefusedError);
  });

  it.each(["0.0.0.0", "192.168.1.20", "::"])("refuses to bind to %s", async (host) => {
    await expect(startDemo({ host })).rejects.toThrow(/loopback only/);
  });
});

describe("the demo cleans up after itself", () => {
  it("removes its temporary folder (its database) when it stops", async () => {
    const demo = await startDemo({ products: 3, saveKeys: false });
    expect(existsSync(demo.workDir)).toBe(true);
    await demo.close();
    expect(existsSync(demo.workDir)).toBe(false);
  }, 180_000);
});
