/**
 * Which storefront a preview request is on (dev/demo/admin-demo.ts `storefrontAt`), as Shopify
 * picks it from the web presences' root URLs: the longest root on the request's host.
 */
import { describe, expect, it } from "vitest";
import { storefrontAt } from "../../dev/demo/admin-demo";

const PRESENCES = [
  {
    rootUrls: [
      { locale: "en", url: "https://demo-store.example.com/" },
      { locale: "de", url: "https://demo-store.example.com/de/" },
    ],
    markets: [{ currencyCode: "EUR" }],
  },
  {
    rootUrls: [{ locale: "en", url: "https://demo-store.example.com/en-gb/" }],
    markets: [{ currencyCode: "GBP" }],
  },
  { rootUrls: [{ locale: "fr", url: "https://demo-store.fr/" }], markets: [] },
];

const at = (host: string, pathname: string) => storefrontAt(PRESENCES, { host, pathname });

describe("storefrontAt", () => {
  it("picks the subfolder whose root is the longest prefix of the path, else the domain's root", () => {
    expect(at("demo-store.example.com", "/de/products/x")).toEqual({
      root: "/de/",
      locale: "de",
      currency: "EUR",
    });
    expect(at("demo-store.example.com", "/de")).toMatchObject({ root: "/de/" });
    expect(at("demo-store.example.com", "/en-gb/")).toEqual({
      root: "/en-gb/",
      locale: "en",
      currency: "GBP",
    });
    expect(at("demo-store.example.com", "/products/de")).toMatchObject({ root: "/", locale: "en" });
    expect(at("demo-store.example.com", "/deutsch")).toMatchObject({ root: "/" });
  });

  it("answers nothing for another host, or a presence without a market", () => {
    expect(at("other.example", "/de/")).toBeUndefined();
    expect(at("demo-store.fr", "/")).toBeUndefined();
  });
});
