/** The widget's pure parts: markdown, colours, stream events, offers, prompts, prices, 429s. */
import { describe, expect, it } from "vitest";
import { parseChatEventLine } from "../../app/index-service/chat-events";
import { retryAfterSeconds } from "../../widget/api";
import { parsePrompts } from "../../widget/config";
import { contrast, palette, parseHex } from "../../widget/contrast";
import { interpret, toProduct } from "../../widget/events";
import { priceFormatter } from "../../widget/format";
import { fill, mergeLabels, DEFAULT_LABELS } from "../../widget/labels";
import { parseBlocks, parseInline, parseWork, safeUrl } from "../../widget/markdown";
import { OFFER_LABELS, toOffer, validate } from "../../widget/offer";

// events.ts resolves links against the page; give it one.
(globalThis as { location?: unknown }).location ??= new URL("https://shop.example/products/x");

describe("markdown subset", () => {
  it("parses emphasis, strong and http(s) links only", () => {
    expect(parseInline("a *b* **c** _d_ __e__ [f](https://x.example/f)")).toEqual([
      { t: "text", v: "a " },
      { t: "em", c: [{ t: "text", v: "b" }] },
      { t: "text", v: " " },
      { t: "strong", c: [{ t: "text", v: "c" }] },
      { t: "text", v: " " },
      { t: "em", c: [{ t: "text", v: "d" }] },
      { t: "text", v: " " },
      { t: "strong", c: [{ t: "text", v: "e" }] },
      { t: "text", v: " " },
      { t: "a", href: "https://x.example/f", c: [{ t: "text", v: "f" }] },
    ]);
    expect(parseInline("[x](javascript:alert(1))")).toEqual([{ t: "text", v: "x" }]);
    expect(parseInline("[w](https://w.example/a_(b))")).toEqual([
      { t: "a", href: "https://w.example/a_(b)", c: [{ t: "text", v: "w" }] },
    ]);
    expect(parseInline("[x](data:text/html,hi)")).toEqual([{ t: "text", v: "x" }]);
  });

  it("leaves snake_case, lone stars and unclosed emphasis as text", () => {
    expect(parseInline("snake_case_name")).toEqual([{ t: "text", v: "snake_case_name" }]);
    expect(parseInline("2 * 3 * 4")).toEqual([{ t: "text", v: "2 * 3 * 4" }]);
    expect(parseInline("**half")).toEqual([{ t: "text", v: "**half" }]);
    expect(parseInline("<b>x</b>")).toEqual([{ t: "text", v: "<b>x</b>" }]);
  });

  it("nests emphasis inside links and strong", () => {
    expect(parseInline("**a *b* c**")).toEqual([
      {
        t: "strong",
        c: [
          { t: "text", v: "a " },
          { t: "em", c: [{ t: "text", v: "b" }] },
          { t: "text", v: " c" },
        ],
      },
    ]);
    expect(parseInline("[*a*](https://x.example/)")).toEqual([
      { t: "a", href: "https://x.example/", c: [{ t: "em", c: [{ t: "text", v: "a" }] }] },
    ]);
  });

  it("makes paragraphs, line breaks and lists", () => {
    expect(parseBlocks("Hi\nthere\n\n- one\n- *two*\n1. first\n\nEnd")).toEqual([
      { t: "p", c: [{ t: "text", v: "Hi" }, { t: "br" }, { t: "text", v: "there" }] },
      {
        t: "ul",
        items: [[{ t: "text", v: "one" }], [{ t: "em", c: [{ t: "text", v: "two" }] }]],
      },
      { t: "ol", items: [[{ t: "text", v: "first" }]] },
      { t: "p", c: [{ t: "text", v: "End" }] },
    ]);
  });

  it("parses hostile runs of openers in linear time", () => {
    // Openers that never close and links whose URLs never end: the regex parser this replaced
    // took 444 ms for 24,000 such characters and grew with the square of the length. The parser's
    // own count of the characters it looks at (not a clock) must stay a small multiple of the
    // length, and grow as the length does: twice the text, twice the work (a quadratic parse
    // would take four times as much, and millions of steps per character here).
    const hostile = [
      (n: number) => "*a ".repeat(n),
      (n: number) => "**a _b ".repeat(n / 2),
      (n: number) => "[a](x ".repeat(n / 2),
      (n: number) => "[".repeat(n) + "a](" + "(".repeat(n),
      (n: number) => "_a *b [c](d ".repeat(n / 4),
    ];
    const work = (text: string) => {
      parseWork.steps = 0;
      expect(parseBlocks(text)).toHaveLength(1);
      return parseWork.steps;
    };
    for (const make of hostile) {
      const small = make(40_000);
      const large = make(80_000);
      expect(work(small)).toBeLessThan(10 * small.length);
      expect(work(large)).toBeLessThan(10 * large.length);
      expect(work(large) / work(small)).toBeLessThan(2.2);
    }
  });

  it("accepts only http and https URLs", () => {
    expect(safeUrl("https://a.example/x")).toBe("https://a.example/x");
    expect(safeUrl("/products/x", "https://shop.example/")).toBe("https://shop.example/products/x");
    for (const bad of ["javascript:alert(1)", "data:x", "vbscript:x", "", 42, null, "//"]) {
      expect(safeUrl(bad, "https://shop.example/")).toBeUndefined();
    }
  });
});

describe("accent colours", () => {
  it("gives AA contrast for text on the accent and accent ink on white, for any colour", () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) % 256;
    const colours = ["#000", "#fff", "#ffff00", "#777777", "#00ff00", "#0000ff", "#ff0000"];
    for (let i = 0; i < 500; i++) {
      colours.push(
        "#" + [random(), random(), random()].map((c) => c.toString(16).padStart(2, "0")).join(""),
      );
    }
    for (const colour of colours) {
      const p = palette(colour);
      expect(contrast(parseHex(p.accent), parseHex(p.onAccent)), colour).toBeGreaterThanOrEqual(
        4.5,
      );
      expect(contrast(parseHex(p.ink), [255, 255, 255]), colour).toBeGreaterThanOrEqual(4.5);
      expect(["#000000", "#ffffff"]).toContain(p.onAccent);
    }
  });

  it("keeps a dark enough accent as it is and falls back on nonsense", () => {
    expect(palette("#1f4fd1")).toEqual({ accent: "#1f4fd1", onAccent: "#ffffff", ink: "#1f4fd1" });
    expect(palette("not a colour").accent).toBe("#1f4fd1");
    expect(palette("#FC0").accent).toBe("#ffcc00");
  });
});

describe("stream events", () => {
  const event = (line: object) => interpret(parseChatEventLine(JSON.stringify(line))!);

  it("maps each spec event type", () => {
    expect(event({ type: "text_delta", data: "Hi" })).toEqual({ type: "text", text: "Hi" });
    expect(
      event({
        type: "text_delta",
        data: "Sam here",
        metadata: { source: "human", agentName: "Sam" },
      }),
    ).toEqual({ type: "text", text: "Sam here", agent: "Sam" });
    expect(
      event({
        type: "product",
        data: { id: 7, name: "Mug", price: "18.5", url: "/products/mug", image: { src: "/m.png" } },
      }),
    ).toEqual({
      type: "product",
      item: {
        id: "7",
        name: "Mug",
        price: 18.5,
        url: "https://shop.example/products/mug",
        image: "https://shop.example/m.png",
      },
    });
    expect(
      event({ type: "product", data: { id: "x", name: "Bad", url: "javascript:x" } }),
    ).toMatchObject({ item: { url: undefined, price: undefined } });
    expect(event({ type: "post", data: { id: "p", title: "Read", excerpt: "Short" } })).toEqual({
      type: "post",
      item: { id: "p", title: "Read", url: undefined, excerpt: "Short", summary: "" },
    });
    expect(event({ type: "post_delta", data: { id: "p", delta: "more" } })).toEqual({
      type: "post_delta",
      id: "p",
      delta: "more",
    });
    expect(event({ type: "prompts", data: ["a", { prompt: "b" }, " "] })).toEqual({
      type: "prompts",
      items: ["a", "b"],
    });
    expect(event({ type: "progress", data: { label: "Working" } })).toEqual({
      type: "progress",
      message: "Working",
    });
    expect(event({ type: "progress", data: {} })).toEqual({ type: "progress", message: "" });
    expect(event({ type: "bubble_termination", data: {} })).toEqual({ type: "bubble" });
    expect(event({ type: "complete", data: {} })).toEqual({ type: "complete" });
    expect(event({ type: "error", data: { error: "x" } })).toEqual({ type: "error" });
    expect(
      event({
        type: "domain_offer_success",
        data: { domain: "d", status: "success", agent: { name: "Sam" } },
      }),
    ).toEqual({ type: "offer_success", ok: true, agent: "Sam" });
    expect(event({ type: "domain_offer_success", data: { domain: "d", status: "error" } })).toEqual(
      {
        type: "offer_success",
        ok: false,
        agent: "",
      },
    );
    expect(
      event({ type: "domain_offer", data: { domain: "d", message: "Talk?", ui: {} } }),
    ).toEqual({
      type: "offer",
      data: { domain: "d", message: "Talk?", ui: {} },
      message: "Talk?",
    });
  });

  it("skips a malformed line but not a reported error", () => {
    expect(interpret(parseChatEventLine("{not json")!)).toBeUndefined();
  });
});

describe("offers", () => {
  it("reads action groups and forms, dropping what cannot be shown", () => {
    expect(
      toOffer({
        domain: "live_agent",
        message: "Talk?",
        ui: { component: "action_group", actions: [{ id: "yes", label: "Yes" }, { id: "x" }] },
      }),
    ).toEqual({
      domain: "live_agent",
      message: "Talk?",
      ui: { component: "action_group", actions: [{ id: "yes", label: "Yes", variant: "" }] },
    });
    const form = toOffer({
      domain: "live_agent",
      ui: {
        component: "form",
        fields: [
          { id: "email", type: "email", label: "Email", required: true },
          { id: "size", type: "select", label: "Size", options: ["S", { value: "m", label: "M" }] },
          { id: "odd", type: "file" },
          { label: "no id" },
        ],
        submitAction: { id: "submit", label: "Send" },
      },
    });
    expect(form?.ui.component === "form" && form.ui.fields.map((f) => [f.id, f.type])).toEqual([
      ["email", "email"],
      ["size", "select"],
      ["odd", "text"],
    ]);
    expect(form?.ui.component === "form" && form.ui.fields[1]!.options).toEqual([
      { value: "S", label: "S" },
      { value: "m", label: "M" },
    ]);
    expect(toOffer({ domain: "d", ui: { component: "carousel" } })).toBeUndefined();
    expect(toOffer({ ui: { component: "form" } })).toBeUndefined();
  });

  it("validates required fields and emails", () => {
    const email = { id: "e", type: "email" as const, label: "Email", required: true };
    expect(validate(email, " ", OFFER_LABELS)).toBe(OFFER_LABELS.required);
    expect(validate(email, "ana@", OFFER_LABELS)).toBe(OFFER_LABELS.invalidEmail);
    expect(validate(email, "ana@example.com", OFFER_LABELS)).toBeUndefined();
    expect(validate({ ...email, required: false }, "", OFFER_LABELS)).toBeUndefined();
  });
});

describe("configuration", () => {
  it("reads starter prompts as JSON or one per line", () => {
    expect(parsePrompts('["A", "B", 3, ""]')).toEqual(["A", "B"]);
    expect(parsePrompts("First\n  Second \n\nThird")).toEqual(["First", "Second", "Third"]);
    expect(parsePrompts("")).toEqual([]);
    expect(parsePrompts("1\n2\n3\n4\n5\n6\n7")).toHaveLength(6);
  });

  it("merges labels over English and fills placeholders", () => {
    const labels = mergeLabels('{"send":"Envoyer","addToCart":"Ajouter","retry":"","x":5}');
    expect(labels.send).toBe("Envoyer");
    expect(labels.retry).toBe("Retry");
    // Texts of the other assets (offer form, product cards) pass through to them.
    expect((labels as Record<string, unknown>).addToCart).toBe("Ajouter");
    expect("x" in labels).toBe(false);
    expect(mergeLabels("not json")).toEqual(DEFAULT_LABELS);
    expect(fill("Wait {n} s, {name}", { n: 3, name: "Ana" })).toBe("Wait 3 s, Ana");
  });

  it("formats prices in the shop's currency and locale", () => {
    expect(priceFormatter("fr", "EUR")(18)).toBe(
      new Intl.NumberFormat("fr", { style: "currency", currency: "EUR" }).format(18),
    );
    expect(priceFormatter("en", "NOPE!")(18)).toBe("18.00");
    expect(priceFormatter("en", undefined)(18)).toBe("18.00");
  });

  it("labels a price with its document's currency when it names one, else the shop's", () => {
    const price = priceFormatter("en", "EUR");
    const inPounds = new Intl.NumberFormat("en", { style: "currency", currency: "GBP" });
    const inEuros = new Intl.NumberFormat("en", { style: "currency", currency: "EUR" });
    expect(price(18, "GBP")).toBe(inPounds.format(18));
    expect(price(18)).toBe(inEuros.format(18));
    // Not a currency code (Shopify's USDC): the shop's.
    expect(price(18, "USDC")).toBe(inEuros.format(18));
    expect(toProduct({ id: 1, name: "Sac", price: 54.9, currency: "GBP" })?.currency).toBe("GBP");
  });

  it("waits the larger of the 429 body's retryAfter and Retry-After", async () => {
    const res = (body: unknown, header?: string) =>
      new Response(JSON.stringify(body), {
        status: 429,
        headers: header ? { "Retry-After": header } : {},
      });
    expect(await retryAfterSeconds(res({ retryAfter: 2 }))).toBe(2);
    expect(await retryAfterSeconds(res({ retryAfter: 2 }, "9"))).toBe(9);
    expect(await retryAfterSeconds(res({ retryAfter: 1.2 }))).toBe(2);
    expect(await retryAfterSeconds(res({}))).toBe(30);
  });
});
