import { describe, expect, it } from "vitest";
import { htmlToPlainText, makeExcerpt } from "../../app/catalogue/html-text";

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
