import { describe, expect, it } from "vitest";
import { InvalidDomainError, workspaceIdFromDomain } from "../../app/index-service/workspace-id";

describe("workspaceIdFromDomain", () => {
  it.each([
    ["shop.example.com", "shop-example-com"],
    ["Shop.Example.COM", "shop-example-com"],
    ["https://shop.example.com/collections/all?page=2", "shop-example-com"],
    ["http://shop.example.com:8080", "shop-example-com"],
    ["www.shop.example.com", "www-shop-example-com"],
    ["shop.example.com.", "shop-example-com"],
    ["  shop.example.com  ", "shop-example-com"],
    ["john-smith.myshopify.com", "john-smith-myshopify-com"],
    ["https://user:pw@shop.example.com/", "shop-example-com"],
    ["bücher.example", "xn--bcher-kva-example"],
    ["xn--bcher-kva.example", "xn--bcher-kva-example"],
    ["MÜNCHEN.de", "xn--mnchen-3ya-de"],
  ])("%s → %s", (input, expected) => {
    expect(workspaceIdFromDomain(input)).toBe(expected);
  });

  it("accepts the longest domain names DNS allows and refuses anything longer", () => {
    const label63 = "a".repeat(63);
    const longest = [label63, label63, label63, "a".repeat(61)].join("."); // 253 characters
    expect(workspaceIdFromDomain(longest)).toBe(longest.replace(/\./g, "-"));
    expect(() => workspaceIdFromDomain(`${longest}a`)).toThrow(InvalidDomainError);
    expect(() => workspaceIdFromDomain(`${"a".repeat(64)}.example.com`)).toThrow(
      InvalidDomainError,
    );
    expect(() => workspaceIdFromDomain("a".repeat(10_000))).toThrow(InvalidDomainError);
  });

  it.each(["", "   ", "https://", "http://[::1]:3000", "shop example.com"])(
    "refuses %j with a clear error",
    (input) => {
      expect(() => workspaceIdFromDomain(input)).toThrow(InvalidDomainError);
    },
  );
});
