/** Text ranking for search and chat retrieval: BM25 over weighted fields. */

const STOP_WORDS = new Set(
  "a an and are as at be by do for from have i in is it me my of on or show the this to we what with you your".split(
    " ",
  ),
);

const K1 = 1.2;
const B = 0.75;

export function tokenize(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== "" && !STOP_WORDS.has(token))
    .map(stem);
}

/** Just enough stemming that "mugs" finds "mug". */
function stem(token: string): string {
  if (token.length > 3 && token.endsWith("s") && !token.endsWith("ss")) return token.slice(0, -1);
  return token;
}

export interface WeightedField {
  text: string | undefined;
  weight: number;
}

export interface Ranked<T> {
  item: T;
  score: number;
}

/**
 * `prefix`: the query's last word may be the start of a word ("caf" finds "café"), as a search
 * box asks while the shopper is still typing.
 */
export function rank<T>(
  items: readonly T[],
  query: string,
  fieldsOf: (item: T) => WeightedField[],
  limit: number,
  options: { prefix?: boolean } = {},
): Ranked<T>[] {
  const terms = [...new Set(tokenize(query))];
  const partial = options.prefix && /[\p{L}\p{N}]$/u.test(query) ? terms.at(-1) : undefined;
  if (terms.length === 0 || items.length === 0) return [];
  const documents = items.map((item) => {
    const frequencies = new Map<string, number>();
    let length = 0;
    for (const field of fieldsOf(item)) {
      if (!field.text) continue;
      for (const token of tokenize(field.text)) {
        frequencies.set(token, (frequencies.get(token) ?? 0) + field.weight);
        length += field.weight;
      }
    }
    return { item, frequencies, length };
  });
  const averageLength = documents.reduce((sum, doc) => sum + doc.length, 0) / documents.length || 1;
  const frequency = (doc: (typeof documents)[number], term: string) => {
    if (term !== partial) return doc.frequencies.get(term) ?? 0;
    let sum = 0;
    for (const [token, count] of doc.frequencies) if (token.startsWith(term)) sum += count;
    return sum;
  };
  const idf = new Map<string, number>();
  for (const term of terms) {
    const df = documents.filter((doc) => frequency(doc, term) > 0).length;
    idf.set(term, Math.log(1 + (documents.length - df + 0.5) / (df + 0.5)));
  }
  const ranked: Ranked<T>[] = [];
  for (const doc of documents) {
    let score = 0;
    for (const term of terms) {
      const tf = frequency(doc, term);
      if (tf === 0) continue;
      const norm = tf + K1 * (1 - B + (B * doc.length) / averageLength);
      score += (idf.get(term) ?? 0) * ((tf * (K1 + 1)) / norm);
    }
    if (score > 0) ranked.push({ item: doc.item, score: Math.round(score * 1_000) / 1_000 });
  }
  return ranked.sort((a, b) => b.score - a.score).slice(0, limit);
}
