export const searchMessages = {
  'search.title': 'Search',
} as const;
