/**
 * Attempts in flight per endpoint in this process, so a slow endpoint cannot take every worker
 * slot (decisions.md: at most 4 at once). An attempt finding its endpoint busy waits in a short
 * line for a slot to be handed over; when the line is full or the wait runs out, the caller
 * queues the attempt again for about when a slot should be free (`retryDelay`).
 */
export class EndpointSlots {
  private readonly inFlight = new Map<string, number>();
  private readonly lines = new Map<string, (() => void)[]>();
  /** Each endpoint's typical attempt time in this process (moving average, ms). */
  private readonly typicalMs = new Map<string, number>();

  constructor(
    private readonly perEndpoint: number,
    /** `maxMs` also bounds the wait in line; `line` is the most attempts waiting per endpoint. */
    private readonly bounds: { minMs: number; maxMs: number; line: number },
  ) {}

  /** True once the caller holds a slot of the endpoint (release it), false when it should retry. */
  take(endpointId: string): Promise<boolean> {
    const busy = this.inFlight.get(endpointId) ?? 0;
    if (busy < this.perEndpoint) {
      this.inFlight.set(endpointId, busy + 1);
      return Promise.resolve(true);
    }
    const line = this.lines.get(endpointId) ?? [];
    if (line.length >= this.bounds.line) return Promise.resolve(false);
    this.lines.set(endpointId, line);
    return new Promise<boolean>((resolve) => {
      const handOver = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = line.indexOf(handOver);
        if (at >= 0) line.splice(at, 1);
        if (line.length === 0 && this.lines.get(endpointId) === line) this.lines.delete(endpointId);
        resolve(false);
      }, this.bounds.maxMs);
      line.push(handOver);
    });
  }

  /** Gives the slot back, to the first in line if any; `durationMs` feeds the typical time. */
  release(endpointId: string, durationMs?: number): void {
    if (durationMs !== undefined) {
      const typical = this.typicalMs.get(endpointId);
      this.typicalMs.set(
        endpointId,
        typical === undefined ? durationMs : typical * 0.8 + durationMs * 0.2,
      );
    }
    const line = this.lines.get(endpointId);
    const next = line?.shift();
    if (line?.length === 0) this.lines.delete(endpointId);
    if (next) return next();
    const busy = (this.inFlight.get(endpointId) ?? 1) - 1;
    if (busy > 0) this.inFlight.set(endpointId, busy);
    else this.inFlight.delete(endpointId);
  }

  /** After the endpoint's typical attempt time, within the bounds, jittered (0.5 to 1.5 times). */
  retryDelay(endpointId: string, random: () => number = Math.random): number {
    const typical = this.typicalMs.get(endpointId) ?? this.bounds.maxMs;
    const wait = Math.min(this.bounds.maxMs, Math.max(this.bounds.minMs, typical));
    return Math.round(wait * (0.5 + random()));
  }
}
