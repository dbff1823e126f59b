import { lazyModule } from '../../common/lazy-module';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
const mailparser = lazyModule(() => require('mailparser') as typeof import('mailparser'));
const replyParser = lazyModule(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  () => (require('email-reply-parser') as typeof import('email-reply-parser')).default,
);

/** What the inbound pipeline needs of a mail. */
export interface ParsedInbound {
  messageId: string | null;
  inReplyTo: string[];
  references: string[];
  from: { address: string; name: string | null };
  /** Recipients named in the headers (To, Cc, Delivered-To, X-Original-To), lower-cased. */
  headerRecipients: string[];
  subject: string | null;
  /** The new text only: quoted history and signature stripped. */
  text: string;
  /**
   * Sent by a machine (RFC 3834 `Auto-Submitted`, `Precedence: bulk|junk|list`, common
   * autoresponder headers): never answered automatically, so two autoresponders cannot loop.
   */
  automatic: boolean;
  /**
   * The files the mail carries, in order; images embedded in the HTML part (`cid:`, a
   * signature's logo) are not among them.
   */
  attachments: InboundAttachment[];
}

export interface InboundAttachment {
  fileName: string;
  contentType: string;
  content: Buffer;
}

/** The longest message body a mail turns into (the widget's limit). */
export const MAX_BODY = 5000;

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

function addressesOf(value: unknown): string[] {
  const lists = Array.isArray(value) ? value : value ? [value] : [];
  return lists.flatMap((list: { value?: { address?: string }[] }) =>
    (list.value ?? []).map((entry) => entry.address ?? '').filter((a) => ADDRESS.test(a)),
  );
}

function idsOf(value: string | string[] | undefined): string[] {
  const text = Array.isArray(value) ? value.join(' ') : (value ?? '');
  return [...text.matchAll(/<[^<>\s]+>/g)].map((match) => match[0]);
}

/**
 * Parses a raw mail with mailparser (HTML-only mail is turned into text by it) and strips the
 * quoted history and signature with email-reply-parser. A mail without a usable From address is
 * malformed (undefined): nothing could be attributed to anyone.
 */
export async function parseInbound(raw: Buffer): Promise<ParsedInbound | undefined> {
  const mail = await mailparser().simpleParser(raw, { skipImageLinks: true, skipTextLinks: true });
  const from = mail.from?.value.find((entry) => entry.address && ADDRESS.test(entry.address));
  if (!from?.address) return undefined;
  const headerLine = (name: string) =>
    mail.headerLines
      .filter((line) => line.key === name)
      .flatMap((line) => [...line.line.matchAll(/[^\s<>:,;"]+@[^\s<>:,;"]+/g)].map((m) => m[0]));
  const recipients = [
    ...addressesOf(mail.to),
    ...addressesOf(mail.cc),
    ...headerLine('delivered-to'),
    ...headerLine('x-original-to'),
  ].map((address) => address.toLowerCase());
  const header = (name: string) => {
    const value = mail.headers.get(name);
    return typeof value === 'string' ? value.trim().toLowerCase() : value ? 'present' : '';
  };
  const autoSubmitted = header('auto-submitted');
  const automatic =
    (autoSubmitted !== '' && autoSubmitted !== 'no') ||
    ['bulk', 'junk', 'list'].includes(header('precedence')) ||
    header('x-autoreply') !== '' ||
    header('x-autorespond') !== '';
  const text = mail.text ?? '';
  const stripped = new (replyParser())().parseReply(text).trim();
  return {
    messageId: mail.messageId ?? null,
    inReplyTo: idsOf(mail.inReplyTo),
    references: idsOf(mail.references),
    from: { address: from.address.toLowerCase(), name: from.name || null },
    headerRecipients: [...new Set(recipients)],
    subject: mail.subject ?? null,
    text: (stripped || text.trim()).slice(0, MAX_BODY),
    automatic,
    attachments: mail.attachments
      .filter((file) => !file.related)
      .map((file, index) => ({
        fileName: file.filename || `attachment-${index + 1}`,
        contentType: file.contentType || 'application/octet-stream',
        content: file.content,
      })),
  };
}
