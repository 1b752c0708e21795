/**
 * The sample store's translations, as a merchant (or a translation app) would have registered
 * them: French for every product and page whose title is made of the generator's words (the
 * French storefront, `<name>.fr`), German titles for the same products (the `/de` subfolder).
 * Titles the generator takes as they are (other scripts, emoji) and the documentation shop's
 * products with no French words here stay untranslated, so a storefront falls back to the
 * primary language for them, as Shopify's does.
 */

const FRENCH: Readonly<Record<string, string>> = {
  Classic: "classique",
  Organic: "bio",
  Handmade: "fait main",
  Vintage: "vintage",
  Lightweight: "léger",
  Waterproof: "imperméable",
  Recycled: "recyclé",
  Premium: "premium",
  Everyday: "de tous les jours",
  Merino: "en mérinos",
  Linen: "en lin",
  Ceramic: "en céramique",
  Bamboo: "en bambou",
  Heritage: "héritage",
  Compact: "compact",
  "Ultra-soft": "ultra-doux",
  Backpack: "Sac à dos",
  Scarf: "Écharpe",
  Teapot: "Théière",
  Snowboard: "Snowboard",
  Hoodie: "Sweat à capuche",
  Candle: "Bougie",
  Notebook: "Carnet",
  Sneakers: "Baskets",
  "Water Bottle": "Gourde",
  Blanket: "Couverture",
  "Desk Lamp": "Lampe de bureau",
  Wallet: "Portefeuille",
  Sunglasses: "Lunettes de soleil",
  "Yoga Mat": "Tapis de yoga",
  "Coffee Grinder": "Moulin à café",
  "Rain Jacket": "Veste de pluie",
};

const GERMAN: Readonly<Record<string, string>> = {
  Classic: "Klassischer",
  Organic: "Bio-",
  Handmade: "Handgemachter",
  Vintage: "Vintage-",
  Lightweight: "Leichter",
  Waterproof: "Wasserdichter",
  Recycled: "Recycelter",
  Premium: "Premium-",
  Everyday: "Alltags-",
  Merino: "Merino-",
  Linen: "Leinen-",
  Ceramic: "Keramik-",
  Bamboo: "Bambus-",
  Heritage: "Heritage-",
  Compact: "Kompakter",
  "Ultra-soft": "Ultraweicher",
  Backpack: "Rucksack",
  Scarf: "Schal",
  Teapot: "Teekanne",
  Snowboard: "Snowboard",
  Hoodie: "Hoodie",
  Candle: "Kerze",
  Notebook: "Notizbuch",
  Sneakers: "Sneaker",
  "Water Bottle": "Trinkflasche",
  Blanket: "Decke",
  "Desk Lamp": "Schreibtischlampe",
  Wallet: "Geldbörse",
  Sunglasses: "Sonnenbrille",
  "Yoga Mat": "Yogamatte",
  "Coffee Grinder": "Kaffeemühle",
  "Rain Jacket": "Regenjacke",
};

const FRENCH_PAGES: Readonly<Record<string, string>> = {
  "About us": "À propos",
  "Shipping & Returns": "Livraison et retours",
  Contact: "Contact",
  FAQ: "Questions fréquentes",
  "Size guide": "Guide des tailles",
  "Store hours": "Horaires du magasin",
  "Privacy policy": "Politique de confidentialité",
  "Terms of Service": "Conditions d'utilisation",
};

/** "Adjective Noun" split on the generator's words; null for any other title. */
function wordsOf(title: string): { adjective: string; noun: string } | null {
  const space = title.indexOf(" ");
  if (space < 0) return null;
  const adjective = title.slice(0, space);
  const noun = title.slice(space + 1);
  return adjective in FRENCH && noun in FRENCH ? { adjective, noun } : null;
}

function slug(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The number the generator appends to a handle ("-12"), kept so translated handles stay unique. */
function handleSuffix(handle: string): string {
  return /-\d+$/.exec(handle)?.[0] ?? "";
}

/** A product's French translation (title, body_html, handle), or null when its title has none. */
export function frenchProduct(product: {
  title: string;
  handle: string;
}): Record<string, string> | null {
  const words = wordsOf(product.title);
  if (!words) return null;
  const title = `${FRENCH[words.noun]} ${FRENCH[words.adjective]}`;
  return {
    title,
    body_html: `<p>${title} : conçu pour durer, expédié depuis notre atelier.</p>`,
    handle: `${slug(title)}${handleSuffix(product.handle)}`,
  };
}

/** A product's German title, or null. */
export function germanProduct(product: { title: string }): Record<string, string> | null {
  const words = wordsOf(product.title);
  if (!words) return null;
  const adjective = GERMAN[words.adjective]!;
  const noun = GERMAN[words.noun]!;
  return { title: adjective.endsWith("-") ? `${adjective}${noun}` : `${adjective} ${noun}` };
}

/** A page's French translation, or null when its title has none. */
export function frenchPage(page: { title: string; handle: string }): Record<string, string> | null {
  const base = page.title.replace(/ \d+$/, "");
  const french = FRENCH_PAGES[base];
  if (!french) return null;
  const title = page.title === base ? french : `${french}${page.title.slice(base.length)}`;
  return {
    title,
    body_html: `<h1>${title}</h1><p>Tout ce qu'il faut savoir, en français.</p>`,
    handle: `${slug(title)}${handleSuffix(page.handle)}`,
  };
}

const FRENCH_ARTICLES: Readonly<Record<string, string>> = {
  "How to brew the perfect cup": "Préparer la tasse parfaite",
  "Our spring lookbook": "Notre lookbook de printemps",
  "5 tips for winter hiking": "5 conseils pour la randonnée d'hiver",
};

/** A blog's title → its French title and handle (the articles' URLs follow the handle). */
export const FRENCH_BLOGS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  News: { title: "Actualités", handle: "actualites" },
};

/** An article's French translation (title, body, summary, handle), or null when its title has none. */
export function frenchArticle(article: {
  title: string;
  handle: string;
}): Record<string, string> | null {
  const base = article.title.replace(/ \(part \d+\)$/, "");
  const french = FRENCH_ARTICLES[base];
  if (!french) return null;
  const title = article.title === base ? french : `${french}${article.title.slice(base.length)}`;
  return {
    title,
    body_html: `<p>${title} : nos conseils, en français.</p>`,
    summary_html: `<p>${title}, en bref.</p>`,
    handle: `${slug(title)}${handleSuffix(article.handle)}`,
  };
}

/** Policy type → its French body (the refund policy only: the others fall back to English). */
export const FRENCH_POLICIES: Readonly<Record<string, string>> = {
  REFUND_POLICY: `<h2>Retours et remboursements</h2>
<p>Vous disposez de <strong>30 jours pour retourner un article</strong> après sa réception, pour un remboursement complet.</p>
<p>L'article doit être dans l'état où vous l'avez reçu, non porté ni utilisé, avec ses étiquettes et dans son emballage d'origine, accompagné du reçu ou d'une preuve d'achat.</p>
<p>Pour demander un retour, écrivez-nous à <a href="mailto:returns@demo-store.example.com">returns@demo-store.example.com</a>. Un colis renvoyé sans demande de retour préalable ne sera pas accepté.</p>
<h3>Articles soldés</h3>
<p>Les articles soldés peuvent être retournés sous 14 jours contre un avoir.</p>`,
};

/** FAQ entry handle → its French fields (the FAQ definition is translatable; two entries of four). */
export const FRENCH_ENTRIES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "can-i-return-a-sale-item": {
    question: "Puis-je retourner un article soldé ?",
    answer:
      "Oui : les articles soldés peuvent être retournés sous 14 jours après la livraison contre un avoir. Les articles à plein tarif ont 30 jours pour un remboursement complet.",
  },
  "how-long-does-shipping-to-germany-take": {
    question: "Combien de temps prend la livraison en Allemagne ?",
  },
};

/** A product metafield's value → its French value (one material). */
export const FRENCH_METAFIELD_VALUES: Readonly<Record<string, string>> = {
  "Anodised aluminium": "Aluminium anodisé",
};

/**
 * Option names and values in French (Shopify's `PRODUCT_OPTION` and `PRODUCT_OPTION_VALUE`
 * resources): sizes stay as they are, as French storefronts show them; a colour already in French
 * ("Rouge") or in another script has none, so the storefront shows it as it is.
 */
export const FRENCH_OPTIONS: Readonly<Record<string, string>> = {
  Size: "Taille",
  Color: "Couleur",
  Title: "Titre",
};
export const FRENCH_OPTION_VALUES: Readonly<Record<string, string>> = {
  Black: "Noir",
  White: "Blanc",
  Navy: "Marine",
  "Forest Green": "Vert forêt",
  Sand: "Sable",
  Charcoal: "Anthracite",
  Mustard: "Moutarde",
};
