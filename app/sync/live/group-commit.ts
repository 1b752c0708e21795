interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: what is submitted while a write is under way is written together by the next
 * write, one write at a time. Each submitter waits for the very write that carries its item, so
 * it learns that its item is durable (or that the write failed: every item of a failed write is
 * rejected). Under load many requests share one database round trip and commit; alone, an item
 * is written at once.
 */
export class GroupCommit<T, R> {
  #queue: Waiting<T, R>[] = [];
  #writing = false;

  constructor(
    /** Writes the items and returns one result per item, in their order. */
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxItems: number = 500,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (!this.#writing) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    // Requests whose bodies arrived in the same turn of the event loop join the first write.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.maxItems);
      try {
        const results = await this.write(batch.map((waiting) => waiting.item));
        if (results.length !== batch.length) {
          throw new Error(`group commit: ${results.length} results for ${batch.length} items`);
        }
        batch.forEach((waiting, k) => waiting.resolve(results[k]!));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.#writing = false;
  }
}
