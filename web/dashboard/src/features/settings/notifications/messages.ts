/** Settings → Notifications: the agent's own email notifications. */
export const notificationSettingsMessages = {
  'settings.notifications.title': 'Notification mails',
  'settings.notifications.description':
    'What you are told of by email while you are not online. At most one mail per conversation or ticket every few minutes; answer a mail to reply as yourself.',
  'settings.notifications.saved': 'Your notification mails were saved.',
  'settings.notifications.newConversation': 'New conversations',
  'settings.notifications.newConversationHint':
    'A visitor starts a conversation while no agent is online.',
  'settings.notifications.conversationAssigned': 'Conversations assigned to me',
  'settings.notifications.conversationAssignedHint': 'A conversation is assigned to you.',
  'settings.notifications.visitorReply': 'Answers in my conversations',
  'settings.notifications.visitorReplyHint': 'A visitor writes in a conversation you hold.',
  'settings.notifications.missedChat': 'Missed chats',
  'settings.notifications.missedChatHint':
    'Nobody answered a chat in time: yours, or any unassigned one for owners and admins.',
  'settings.notifications.ticketAssigned': 'Tickets assigned to me',
  'settings.notifications.ticketAssignedHint': 'A ticket is assigned to you.',
  'settings.notifications.customerReply': 'Answers on my tickets',
  'settings.notifications.customerReplyHint': 'The customer answers on a ticket you hold.',
} as const;
