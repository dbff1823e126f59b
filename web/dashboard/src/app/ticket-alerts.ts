import { useSyncExternalStore } from 'react';
import { setTitleCount } from './notify';

/**
 * Tickets someone else filed or changed that concern the agent (new and nobody's, or theirs),
 * not opened since: counted in the tab title and marked in the ticket list until opened. Kept for
 * the tab's life, as the inbox's unread counts are.
 */
let alerted: ReadonlySet<number> = new Set();
const listeners = new Set<() => void>();

function set(next: ReadonlySet<number>): void {
  alerted = next;
  setTitleCount(alerted.size, 'tickets');
  for (const listener of listeners) listener();
}

export const ticketAlerts = {
  add(ticketId: number): void {
    if (!alerted.has(ticketId)) set(new Set([...alerted, ticketId]));
  },
  seen(ticketId: number): void {
    if (alerted.has(ticketId)) set(new Set([...alerted].filter((id) => id !== ticketId)));
  },
};

export function useTicketAlerts(): ReadonlySet<number> {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => alerted,
  );
}
