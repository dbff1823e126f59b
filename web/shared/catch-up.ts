/**
 * Where a client's catch-up (`sync`) starts after its connection dropped, and which of the
 * answered messages it already has.
 *
 * Message ids come from one sequence, drawn when a message is stored, but the transactions that
 * store them commit in their own order: message 79 can become visible, and be pushed, after 80.
 * A client that asked for everything after the newest id it had seen (80) never got 79 when its
 * connection dropped between the two pushes (seen in the graceful-deploy test, docs/testing.md).
 * Every message committed after a drop was drawn after the start of its transaction, so it is
 * newer than every message the client had already seen `SETTLE_MS` earlier, if no transaction
 * runs that long. A catch-up therefore asks for everything after the newest id seen at least
 * `SETTLE_MS` ago; what it had seen since comes again, and `isNew` tells it apart.
 */
export const SETTLE_MS = 60_000;

export class CatchUpCursor {
  /** The newest id among those seen at least `settleMs` ago. */
  private settled = 0;
  /** Ids seen within the last `settleMs`, oldest first. */
  private readonly recent: { id: number; at: number }[] = [];
  private readonly recentIds = new Set<number>();

  constructor(
    private readonly settleMs = SETTLE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A message shown (pushed, caught up or loaded over HTTP). */
  saw(id: number): void {
    this.settle();
    if (id <= this.settled || this.recentIds.has(id)) return;
    this.recent.push({ id, at: this.now() });
    this.recentIds.add(id);
  }

  /** Whether a message is one this client has not seen yet. */
  isNew(id: number): boolean {
    this.settle();
    return id > this.settled && !this.recentIds.has(id);
  }

  /** Whether anything was seen at all (a first connection has nothing to catch up on). */
  get empty(): boolean {
    return this.settled === 0 && this.recent.length === 0;
  }

  /** The `after_id` a catch-up starts from. */
  get afterId(): number {
    this.settle();
    return this.settled;
  }

  private settle(): void {
    const before = this.now() - this.settleMs;
    while (this.recent.length > 0 && this.recent[0].at <= before) {
      const { id } = this.recent.shift()!;
      this.recentIds.delete(id);
      this.settled = Math.max(this.settled, id);
    }
  }
}
