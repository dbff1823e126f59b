export const inboxMessages = {
  'inbox.title': 'Inbox',
} as const;
