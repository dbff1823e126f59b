export const reportsMessages = {
  'reports.title': 'Reports',
} as const;
