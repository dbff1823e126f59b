/**
 * Gathers the calls made while a batch is being written into the next batch: under load many
 * attempts share one statement, and a lone call waits for nothing but the next tick. Each caller
 * gets its own item's result (or the batch's error) once its batch is done.
 */
export class Batcher<I, O> {
  private queue: { item: I; resolve: (result: O) => void; reject: (error: unknown) => void }[] = [];
  private running = false;

  /** `run` answers one result per item, in the items' order. */
  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxBatch = 200,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.running) return;
      this.running = true;
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.run(batch.map((entry) => entry.item));
        batch.forEach((entry, index) => entry.resolve(results[index]));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.running = false;
  }
}
