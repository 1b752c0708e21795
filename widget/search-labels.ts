/** The search box's texts and timing, apart from its DOM code so that Node tools can read them. */

/** English defaults; the block passes the shop's translations in `data-labels`. */
export const SEARCH_LABELS = {
  products: "Products",
  pages: "Pages and articles",
  all: "Search for “{q}”",
  none: "No products match “{q}”.",
  count: "{n} suggestions",
  instock: "In stock",
  onbackorder: "Available to order",
  outofstock: "Sold out",
};

export type SearchLabels = typeof SEARCH_LABELS;

/** The pause in typing after which the service is asked. */
export const SEARCH_PAUSE_MS = 180;
