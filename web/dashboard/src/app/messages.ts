export const appMessages = {
  'app.name': 'Support Chat',
  'app.loading': 'Loading…',
} as const;
