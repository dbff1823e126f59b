export const settingsMessages = {
  'settings.title': 'Settings',
} as const;
