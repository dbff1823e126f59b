export const ticketsMessages = {
  'tickets.title': 'Tickets',
} as const;
