/** The rendered mail and its headers, as it waits sealed in the mail log until it is sent. */
export interface MailContent {
  from: string | { name: string; address: string };
  toName: string | null;
  text: string;
  html: string;
  replyTo?: string;
  inReplyTo?: string;
  references?: string[];
  headers?: Record<string, string>;
  /** An iCalendar invite (text/calendar part and `invite.ics`), for appointment mails. */
  calendar?: MailCalendar;
}

export interface MailCalendar {
  method: 'REQUEST' | 'CANCEL';
  content: string;
}
