/**
 * The sample store's France market catalog, as a merchant would have set it: fixed euro prices
 * (about 10 % above the shop's, ending in .90) for every variant of every third product, and
 * the second product left out of the market's publication, so French shoppers cannot see it.
 */

interface SampleProduct {
  id: string;
  handle: string;
  variants: { id: string; price: string; compareAtPrice?: string | null }[];
}

const frenchPrice = (amount: string) => (Math.ceil(Number(amount) * 1.1) - 0.1).toFixed(2);

export function sampleFrancePricing(products: readonly SampleProduct[]): {
  fixed: Map<string, { price: string; compareAtPrice: string | null; currency: string }>;
  unpublished: string[];
} {
  const fixed = new Map<
    string,
    { price: string; compareAtPrice: string | null; currency: string }
  >();
  products.forEach((product, index) => {
    if (index % 3 !== 0) return;
    for (const variant of product.variants) {
      const compare = variant.compareAtPrice ? frenchPrice(variant.compareAtPrice) : null;
      fixed.set(variant.id, {
        price: frenchPrice(variant.price),
        compareAtPrice: compare,
        currency: "EUR",
      });
    }
  });
  return { fixed, unpublished: products[1] ? [products[1].id] : [] };
}
