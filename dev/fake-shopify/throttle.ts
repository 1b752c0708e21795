/** Shopify's leaky bucket of query cost points: drained by each query, refilled every second. */

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export class CostBucket {
  #available: number;
  #at: number;

  constructor(
    readonly maximumAvailable: number,
    readonly restoreRate: number,
    private readonly now: () => number,
  ) {
    this.#available = maximumAvailable;
    this.#at = now();
  }

  #refill(): void {
    const now = this.now();
    const elapsed = Math.max(0, now - this.#at) / 1000;
    this.#available = Math.min(this.maximumAvailable, this.#available + elapsed * this.restoreRate);
    this.#at = now;
  }

  available(): number {
    this.#refill();
    return this.#available;
  }

  take(cost: number): void {
    this.#refill();
    this.#available = Math.max(0, this.#available - cost);
  }

  set(available: number): void {
    this.#refill();
    this.#available = Math.max(0, Math.min(this.maximumAvailable, available));
  }

  status(): ThrottleStatus {
    return {
      maximumAvailable: this.maximumAvailable,
      currentlyAvailable: Math.floor(this.available()),
      restoreRate: this.restoreRate,
    };
  }
}
