import { CatchUpCursor } from './catch-up';

describe('CatchUpCursor', () => {
  let clock = 0;
  const cursor = () => new CatchUpCursor(1_000, () => clock);
  beforeEach(() => {
    clock = 0;
  });

  it('starts after nothing, and a first connection has nothing to catch up on', () => {
    const fresh = cursor();
    expect(fresh.empty).toBe(true);
    expect(fresh.afterId).toBe(0);
    fresh.saw(5);
    expect(fresh.empty).toBe(false);
  });

  it('asks again for what it saw within the settling time: a smaller id may still commit', () => {
    const seen = cursor();
    seen.saw(78);
    clock = 2_000;
    seen.saw(80); // 79's transaction has not committed yet
    clock = 2_500;
    // A drop now: 79 comes after it, and only a catch-up from 78 on brings it.
    expect(seen.afterId).toBe(78);
    expect(seen.isNew(80)).toBe(false);
    expect(seen.isNew(79)).toBe(true);
    seen.saw(79);
    expect(seen.isNew(79)).toBe(false);
  });

  it('moves past what it saw once that has settled', () => {
    const seen = cursor();
    seen.saw(80);
    seen.saw(79);
    clock = 999;
    expect(seen.afterId).toBe(0);
    clock = 1_000;
    expect(seen.afterId).toBe(80);
    expect(seen.isNew(79)).toBe(false);
    expect(seen.isNew(80)).toBe(false);
    expect(seen.isNew(81)).toBe(true);
  });

  it('counts a message seen twice once', () => {
    const seen = cursor();
    seen.saw(3);
    clock = 500;
    seen.saw(3);
    clock = 1_000;
    expect(seen.afterId).toBe(3);
    seen.saw(2);
    expect(seen.isNew(2)).toBe(false);
  });
});
