/**
 * The admin's locale (issue 26, item 7): Shopify's `locale` on the app's URL, else the cookie the
 * app frame keeps it in, else en-GB; an unknown or malformed tag never breaks a page.
 */
import { describe, expect, it } from "vitest";
import { adminFormat, adminLocaleOf, LOCALE_COOKIE } from "../../app/format";

const request = (query: string, cookie?: string) =>
  new Request(`https://app.example.com/app${query}`, {
    headers: cookie ? { Cookie: cookie } : {},
  });

describe("adminLocaleOf", () => {
  it("takes Shopify's locale parameter first, then the kept cookie, then en-GB", () => {
    expect(adminLocaleOf(request("?locale=de&shop=x.myshopify.com"))).toBe("de");
    expect(adminLocaleOf(request("?locale=pt-BR", `${LOCALE_COOKIE}=de`))).toBe("pt-BR");
    expect(adminLocaleOf(request("", `other=1; ${LOCALE_COOKIE}=fr`))).toBe("fr");
    expect(adminLocaleOf(request(""))).toBe("en-GB");
  });

  it("ignores a malformed tag", () => {
    expect(adminLocaleOf(request("?locale=%3Cscript%3E"))).toBe("en-GB");
    expect(adminLocaleOf(request("", `${LOCALE_COOKIE}=not_a_locale!`))).toBe("en-GB");
  });
});

describe("adminFormat", () => {
  const moment = "2026-11-22T17:05:00Z";
  it("writes dates and numbers as the admin's language does, in UTC", () => {
    const de = adminFormat("de");
    expect(de.moment(moment)).toBe("22. Nov. 2026, 17:05 UTC");
    expect(de.count(1000, "Produkt", "Produkte")).toBe("1.000 Produkte");
    const gb = adminFormat("en-GB");
    expect(gb.moment(moment)).toBe("22 Nov 2026, 17:05 UTC");
    expect(gb.day(moment)).toBe("22 Nov 2026");
    expect(gb.count(1, "item")).toBe("1 item");
    expect(adminFormat("en").number(1000)).toBe("1,000");
  });
});
