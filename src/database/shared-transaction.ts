import type { DataSource, EntityManager } from 'typeorm';

/**
 * A transaction several features' writes share (a macro's steps; an incoming mail's delivery and
 * its `processed` mark), and what each of them runs once it has committed (live pushes, mail).
 * A write given one runs in it and queues its after-commit work there; without one it opens its
 * own transaction and does that work itself.
 */
export interface SharedTransaction {
  manager: EntityManager;
  afterCommit: Array<() => Promise<void> | void>;
}

/** Runs `work` in `tx` when given, else in a transaction of its own. */
export function inTransaction<T>(
  dataSource: DataSource,
  tx: SharedTransaction | undefined,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  return tx ? work(tx.manager) : dataSource.transaction(work);
}

/** After `tx` commits (queued there), or now when the write had its own transaction. */
export async function afterCommit(
  tx: SharedTransaction | undefined,
  effect: () => Promise<void> | void,
): Promise<void> {
  if (tx) tx.afterCommit.push(effect);
  else await effect();
}

/**
 * Runs several writes in one transaction (each given `tx`): all of them commit or none does, and
 * their after-commit work follows the commit, in order.
 */
export async function inOneTransaction<T>(
  dataSource: DataSource,
  work: (tx: SharedTransaction) => Promise<T>,
): Promise<T> {
  const queued: SharedTransaction['afterCommit'] = [];
  const result = await dataSource.transaction((manager) => work({ manager, afterCommit: queued }));
  for (const effect of queued) await effect();
  return result;
}
