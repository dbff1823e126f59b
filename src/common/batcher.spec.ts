import { Batcher } from './batcher';

describe('batcher', () => {
  it('runs a lone call on its own and gathers calls made meanwhile into the next batch', async () => {
    const batches: number[][] = [];
    let finish: () => void = () => undefined;
    const batcher = new Batcher<number, number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (finish = resolve));
      return items.map((item) => item * 10);
    });
    const first = batcher.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [batcher.add(2), batcher.add(3)];
    finish();
    expect(await first).toBe(10);
    expect(await Promise.all(later)).toEqual([20, 30]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('keeps batches within the limit', async () => {
    const sizes: number[] = [];
    const batcher = new Batcher<number, number>((items) => {
      sizes.push(items.length);
      return Promise.resolve(items);
    }, 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.add(n)))).toEqual([1, 2, 3, 4, 5]);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it("gives every caller of a failed batch the batch's error, and goes on", async () => {
    let fail = true;
    const batcher = new Batcher<number, number>((items) =>
      fail ? Promise.reject(new Error('down')) : Promise.resolve(items),
    );
    await expect(Promise.all([batcher.add(1), batcher.add(2)])).rejects.toThrow('down');
    fail = false;
    expect(await batcher.add(3)).toBe(3);
  });
});
