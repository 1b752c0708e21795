/** A small seeded PRNG (mulberry32): the same seed always gives the same catalogue. */
export class Prng {
  private state: number;

  constructor(seed: number | string) {
    // "42" and 42 are the same seed, so the CLI and code agree.
    const numeric = typeof seed === "number" ? seed : /^\d+$/.test(seed) ? Number(seed) : null;
    this.state = numeric !== null ? numeric >>> 0 : hashSeed(seed as string);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(values: readonly T[]): T {
    const value = values[Math.floor(this.next() * values.length)];
    if (value === undefined) throw new Error("pick from an empty list");
    return value;
  }

  /** `count` distinct values (fewer when the list is shorter). */
  sample<T>(values: readonly T[], count: number): T[] {
    const pool = [...values];
    const result: T[] = [];
    while (result.length < count && pool.length > 0) {
      const index = Math.floor(this.next() * pool.length);
      result.push(pool.splice(index, 1)[0] as T);
    }
    return result;
  }
}

function hashSeed(seed: string): number {
  let hash = 2166136261;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}
