import type { SiteLookup } from '../data-lookup/data-lookup.service';
import { escapeHtml } from '../data-lookup/table-markup';

/** A quick reply the widget shows under a bot answer. */
export interface FollowUpReply {
  type: 'button' | 'filter_record';
  label: string;
  emoji: string;
}

/** What a logged-in visitor can do next: search records, and one button per keyword rule. */
export function followUps(lookup: SiteLookup): FollowUpReply[] {
  const replies: FollowUpReply[] = [];
  const record = lookup.settings.filter_record;
  if (record?.enabled)
    replies.push({ type: 'filter_record', label: record.button_label, emoji: '🔎' });
  for (const rule of lookup.settings.rules) {
    replies.push({ type: 'button', label: rule.label, emoji: '📋' });
  }
  return replies;
}

export const REPLIES = {
  loggedIn: (name: string) => `You are logged in as ${escapeHtml(name)}.`,
  noAccount: 'We could not find an account with that email address or mobile number.',
  codeSent: `If an account matches, we have sent a 6-digit code to its email address. Enter it here to log in; it is valid for 10 minutes.`,
  noCode: 'There is no valid code. Please log in again to get a new one.',
  wrongCode: (left: number) =>
    `That code is not right. You have ${left} ${left === 1 ? 'try' : 'tries'} left.`,
  burned:
    'That code is not right, and it has now been blocked. Please log in again to get a new one.',
  trustedNoAccount: 'No account matches this email address.',
};
