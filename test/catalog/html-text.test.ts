import { describe, expect, it } from "vitest";
import {
  htmlToPlainText,
  htmlToPlainTextWithLibrary,
  makeExcerpt,
  NAMED_ENTITIES,
  simpleMarkupToText,
} from "../../app/catalog/html-text";
import { catalogueLines } from "../../dev/sample-store/catalogue-generator";
import { Prng } from "../../dev/sample-store/prng";

describe("htmlToPlainText", () => {
  it("drops scripts, styles, iframes and images, keeping the words", () => {
    const html =
      '<style>.a{color:red}</style><script>alert("hi")</script><p>Hello</p>' +
      '<iframe src="https://youtube.com/embed/x">fallback</iframe><img src="a.png" alt="photo"><p>world</p>';
    expect(htmlToPlainText(html)).toBe("Hello world");
  });

  it("decodes entities", () => {
    expect(
      htmlToPlainText("<p>Caf&eacute; &amp; cr&egrave;me &#8212; 30&nbsp;&deg;C &#x1F600;</p>"),
    ).toBe("Café & crème — 30 °C 😀");
    expect(
      htmlToPlainText("5 &lt; 6 &gt; 4, &quot;quoted&quot;, it&#39;s &hearts; &Uuml;ber"),
    ).toBe('5 < 6 > 4, "quoted", it\'s ♥ Über');
  });

  it("keeps link text without the URL", () => {
    expect(htmlToPlainText('See <a href="https://example.com/care">our care guide</a>.')).toBe(
      "See our care guide.",
    );
  });

  it("collapses whitespace and line breaks, keeps words apart across blocks but not inline tags", () => {
    const html =
      "<h1>Big   title</h1>\n\n<ul><li>One</li><li>Two</li></ul>Dol<b>or</b><br>sit\tamet<table><tr><td>M</td><td>Slim</td></tr></table>";
    expect(htmlToPlainText(html)).toBe("Big title One Two Dolor sit amet M Slim");
  });

  it("keeps accents, CJK and emoji intact", () => {
    expect(htmlToPlainText("<p>抹茶 茶碗 🍵</p><p>Zoë &amp; Chloé 👩‍👩‍👧</p>")).toBe(
      "抹茶 茶碗 🍵 Zoë & Chloé 👩‍👩‍👧",
    );
  });

  it("handles empty input and plain text", () => {
    expect(htmlToPlainText("")).toBe("");
    expect(htmlToPlainText(null)).toBe("");
    expect(htmlToPlainText("  just text  ")).toBe("just text");
  });

  it("handles sloppy markup (comments, unclosed tags, a bare <)", () => {
    expect(htmlToPlainText("<p>a<!-- hidden --><p>b<li>c")).toBe("a b c");
    expect(htmlToPlainText("1 < 2 and <b>bold")).toBe("1 < 2 and bold");
  });
});

describe("the direct path for simple markup", () => {
  const TAGS = [
    "p",
    "div",
    "br",
    "ul",
    "ol",
    "li",
    "h2",
    "blockquote",
    "table",
    "tr",
    "td",
    "th",
    "dl",
    "dt",
    "dd",
    "hr",
    "span",
    "b",
    "strong",
    "em",
    "a",
    "img",
    "sup",
    "font",
    "wbr",
    "section",
    "pre",
  ];
  const TEXTS = [
    "Hello",
    "world",
    " ",
    "\n",
    "\t",
    "Café",
    "東京",
    "🚀",
    "&amp;",
    "&nbsp;",
    "&#8217;",
    "&#x2603;",
    "&eacute;",
    "&lt;b&gt;",
    "it's",
    "&",
    "& ",
    "&;",
    "&madeup;",
    "\u00a0",
    "\u200b",
    "\u3000",
  ];

  function randomHtml(rng: Prng, depth: number): string {
    let html = "";
    for (let i = rng.int(0, 4); i > 0; i--) {
      if (depth < 4 && rng.chance(0.5)) {
        const tag = rng.pick(TAGS);
        const attributes = rng.chance(0.3)
          ? ` class="a b" data-x='1>2' href=https://e.com/?a=1&amp;b=2`
          : "";
        if (["br", "hr", "img", "wbr"].includes(tag))
          html += `<${tag}${attributes}${rng.chance(0.5) ? "/" : ""}>`;
        else
          html += `<${rng.chance(0.1) ? tag.toUpperCase() : tag}${attributes}>${randomHtml(rng, depth + 1)}</${tag}>`;
      } else {
        html += rng.pick(TEXTS);
      }
    }
    return html;
  }

  it("gives exactly html-to-text's result on thousands of random documents", () => {
    const rng = new Prng("html");
    let direct = 0;
    for (let i = 0; i < 5000; i++) {
      const html = randomHtml(rng, 0);
      const fast = simpleMarkupToText(html);
      if (fast === null) continue;
      direct += 1;
      expect(fast, html).toBe(htmlToPlainTextWithLibrary(html));
    }
    expect(direct).toBeGreaterThan(1000);
  });

  it("decodes every entity it knows as html-to-text does", () => {
    for (const [name] of NAMED_ENTITIES) {
      const html = `<p>x&${name};y</p>`;
      expect(simpleMarkupToText(html), name).toBe(htmlToPlainTextWithLibrary(html));
    }
  });

  it("gives html-to-text's result on every generated product description", () => {
    let direct = 0;
    for (const line of catalogueLines({ products: 300, seed: 11 })) {
      const html = (JSON.parse(line) as { descriptionHtml?: string }).descriptionHtml;
      if (html === undefined) continue;
      const fast = simpleMarkupToText(html);
      if (fast !== null) direct += 1;
      expect(htmlToPlainText(html)).toBe(htmlToPlainTextWithLibrary(html));
    }
    expect(direct).toBeGreaterThan(250);
  });

  it("leaves scripts, comments, unknown entities and misnested tags to html-to-text", () => {
    for (const html of [
      "<script>x</script>",
      "a<!-- c -->b",
      "&madeup;",
      "&amp",
      "<p><b>x</p></b>",
      "<p>a<p>b",
      "a < b",
      "<custom-tag>x</custom-tag>",
    ]) {
      expect(simpleMarkupToText(html), html).toBeNull();
    }
  });
});

describe("makeExcerpt", () => {
  it("keeps short text whole", () => {
    expect(makeExcerpt("A short description.")).toBe("A short description.");
  });

  it("cuts long text on a word boundary with an ellipsis, within 160 characters", () => {
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(10);
    const excerpt = makeExcerpt(text);
    expect(excerpt.length).toBeLessThanOrEqual(160);
    expect(excerpt.endsWith("…")).toBe(true);
    expect(text.startsWith(excerpt.slice(0, -1))).toBe(true);
    expect(excerpt.slice(0, -1)).toMatch(/(^| )(The|quick|brown|fox|jumps|over|the|lazy|dog)$/);
  });

  it("does not end on punctuation before the ellipsis", () => {
    const text = `${"word ".repeat(30)}end, ${"more ".repeat(30)}`;
    expect(makeExcerpt(text, 160)).not.toMatch(/[,.;:] ?…$/);
  });

  it("cuts text without spaces between characters, never inside an emoji", () => {
    const cjk = "伝統的な技法で一つ一つ丁寧に作られています。".repeat(20);
    const excerpt = makeExcerpt(cjk);
    expect(excerpt.length).toBeLessThanOrEqual(160);
    expect(cjk.startsWith(excerpt.slice(0, -1))).toBe(true);
    const family = "👩‍👩‍👧‍👦".repeat(40);
    const cut = makeExcerpt(family).slice(0, -1);
    expect(cut.length % "👩‍👩‍👧‍👦".length).toBe(0);
  });
});
