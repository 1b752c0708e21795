/**
 * The search asset (chat-search.js): enhances every `[data-catalog-search]` element's form. The
 * search block loads it when the shopper first reaches for the search box; a page that renders the
 * element later dispatches `catalog-search:scan`. A failure leaves the theme's form as it was.
 */
import { enhance } from "./search";

function start(): void {
  document.querySelectorAll<HTMLElement>("[data-catalog-search]").forEach((el) => {
    try {
      enhance(el);
    } catch (err) {
      console.warn("catalog search:", err);
    }
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
document.addEventListener("catalog-search:scan", start);
