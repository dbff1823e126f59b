export const authMessages = {
  'auth.title': 'Auth',
} as const;
