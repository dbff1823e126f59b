import { EndpointSlots } from './endpoint-slots';

describe('endpoint slots', () => {
  const slots = () => new EndpointSlots(2, { minMs: 20, maxMs: 100, line: 2 });

  it('gives each endpoint its own slots', async () => {
    const s = slots();
    expect(await s.take('a')).toBe(true);
    expect(await s.take('a')).toBe(true);
    expect(await s.take('b')).toBe(true);
  });

  it('hands a released slot to the first attempt in line', async () => {
    const s = slots();
    await s.take('a');
    await s.take('a');
    const order: string[] = [];
    const first = s.take('a').then((got) => order.push(`first ${got}`));
    const second = s.take('a').then((got) => order.push(`second ${got}`));
    s.release('a');
    await first;
    expect(order).toEqual(['first true']);
    s.release('a');
    await second;
    expect(order).toEqual(['first true', 'second true']);
    // Both slots are held again: a new attempt waits.
    let third: boolean | undefined;
    void s.take('a').then((got) => (third = got));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(third).toBeUndefined();
  });

  it('turns an attempt away when the line is full or its wait runs out', async () => {
    const s = slots();
    await s.take('a');
    await s.take('a');
    const waiting = [s.take('a'), s.take('a')];
    expect(await s.take('a')).toBe(false);
    expect(await Promise.all(waiting)).toEqual([false, false]);
    // The line is empty again; a release frees a slot for the next one at once.
    s.release('a');
    expect(await s.take('a')).toBe(true);
  });

  it('retries a busy endpoint after about its typical attempt time, within the bounds', () => {
    const s = slots();
    expect(s.retryDelay('new', () => 0.5)).toBe(100);
    s.release('fast', 2);
    expect(s.retryDelay('fast', () => 0.5)).toBe(20);
    s.release('medium', 50);
    expect(s.retryDelay('medium', () => 0)).toBe(25);
    expect(s.retryDelay('medium', () => 1)).toBe(75);
    s.release('slow', 5_000);
    expect(s.retryDelay('slow', () => 0.5)).toBe(100);
  });
});
