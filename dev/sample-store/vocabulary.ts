/** Word pools for the generated catalogue: several languages, accents, CJK and emoji on purpose. */

export const ADJECTIVES = [
  "Classic",
  "Organic",
  "Handmade",
  "Vintage",
  "Lightweight",
  "Waterproof",
  "Recycled",
  "Premium",
  "Everyday",
  "Merino",
  "Linen",
  "Ceramic",
  "Bamboo",
  "Heritage",
  "Compact",
  "Ultra-soft",
];

export const NOUNS = [
  "Backpack",
  "Scarf",
  "Teapot",
  "Snowboard",
  "Hoodie",
  "Candle",
  "Notebook",
  "Sneakers",
  "Water Bottle",
  "Blanket",
  "Desk Lamp",
  "Wallet",
  "Sunglasses",
  "Yoga Mat",
  "Coffee Grinder",
  "Rain Jacket",
];

/** Titles in other scripts and with emoji, used as they are. */
export const UNICODE_TITLES = [
  "Écharpe en laine mérinos",
  "Crème hydratante à l'aloe vera",
  "Größenverstellbarer Rucksack",
  "Café colombiano tostado — 500 g",
  "抹茶 茶碗 (手作り)",
  "丝绸围巾 · 经典款",
  "김치 발효 용기",
  "🌿 Organic Green Tea",
  "Snow Day ❄️ Beanie",
  "Ζεστό κασκόλ",
  "Чайник из чугуна",
  "Jalapeño & Lime Hot Sauce",
];

export const VENDORS = [
  "Northwind Outfitters",
  "Maison Lumière",
  "Kōbō Studio",
  "Barnes & Noble",
  "Acme Goods",
  "Fjällräven-ish",
  "Green Leaf Co.",
  "上海丝绸",
];

export const PRODUCT_TYPES = [
  "Accessories",
  "Apparel",
  "Home & Kitchen",
  "Outdoor",
  "Stationery",
  "Tea",
  "Beauty",
  "Snowboards",
  "",
];

export const TAGS = [
  "new",
  "sale",
  "bestseller",
  "eco",
  "gift",
  "limited edition",
  "vegan",
  "made in Portugal",
  "été",
  "限定",
  "winter",
  "summer",
  "unisex",
  "handmade",
];

export const COLLECTION_TITLES = [
  "Home page",
  "Summer Collection",
  "Winter Essentials",
  "Gifts under $50",
  "Best Sellers",
  "Nouveautés",
  "Tea & Ceremony",
  "Outdoor Adventures",
  "秋のコレクション",
  "Eco Friendly 🌱",
  "Kitchen",
  "Travel",
];

export const SIZES = ["XS", "S", "M", "L", "XL", "XXL", "3XL", "4XL", "5XL", "6XL"];
export const COLORS = [
  "Black",
  "White",
  "Navy",
  "Forest Green",
  "Rouge",
  "Bleu ciel",
  "Sand",
  "Charcoal",
  "抹茶",
  "Mustard",
];
export const MATERIALS = ["Cotton", "Wool", "Linen", "Silk", "Recycled polyester"];

export const SENTENCES = [
  "Designed for everyday use, it pairs comfort with durability.",
  "Each piece is finished by hand in our workshop, so no two are exactly alike.",
  "Machine washable at 30 °C; dry flat to keep its shape.",
  "Ships in plastic-free packaging made from recycled card.",
  "Our best-selling design, now in more colours.",
  "Fabriqué en France avec des matières premières sélectionnées.",
  "Perfect for weekend trips, commutes & everything in between.",
  "It's lightweight, packable and ready for the rain.",
  "伝統的な技法で一つ一つ丁寧に作られています。",
  "选用优质桑蚕丝，手感柔软顺滑。",
  "Care: hand wash only — do not tumble dry.",
  "Includes a 2-year warranty and free returns within 30 days.",
  "Naïve art meets modern craft in this limited run.",
  "Great gift 🎁 for tea lovers ☕ and collectors.",
];

export const PAGE_TITLES = [
  "About us",
  "Shipping & Returns",
  "Contact",
  "FAQ",
  "Size guide",
  "Store hours",
  "Mentions légales",
  "Privacy policy",
  "Terms of Service",
  "私たちについて",
];

export const ARTICLE_TITLES = [
  "How to brew the perfect cup",
  "Our spring lookbook",
  "Behind the scenes at the workshop",
  "5 tips for winter hiking",
  "Meet the makers: Kōbō Studio",
  "Les secrets d'une bonne crème",
  "茶道の基本",
  "Gift guide 🎄",
];

export const AUTHORS = ["Dennis", "Amélie Laurent", "佐藤 花子", "Sam O'Neil"];

/** The generated blogs (ids of their own: the documentation shop's blog is 241253187). */
export const BLOGS = [
  { id: "gid://shopify/Blog/241253190", handle: "news", title: "News" },
  { id: "gid://shopify/Blog/241253191", handle: "journal", title: "Journal 日本" },
  { id: "gid://shopify/Blog/241253192", handle: "recettes", title: "Recettes & conseils" },
];
