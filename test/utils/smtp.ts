import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpCapture {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  port: number;
  mails: CapturedMail[];
  /**
   * Resolves with the first mail (already received or coming) to `address` that `match` accepts,
   * within `ms` (30 s by default: a mail goes through the queue, slow on a loaded CI machine).
   */
  next(
    address: string,
    match?: (mail: CapturedMail) => boolean,
    ms?: number,
  ): Promise<CapturedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free local port (or `port`, to come back where a stopped one was) that
 * keeps every mail it is given (no auth, no TLS). A mail `refuse` accepts is answered 550 (a
 * permanent failure, as a real server refuses a mailbox) and not kept.
 */
export async function startSmtp(
  port = 0,
  refuse: (mail: CapturedMail) => boolean = () => false,
): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  const waiters: {
    address: string;
    match: (mail: CapturedMail) => boolean;
    resolve: (mail: CapturedMail) => void;
  }[] = [];
  const taken = new Set<CapturedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Stopping does not wait half a minute for a client's pooled connection to leave.
    closeTimeout: 200,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail: CapturedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        if (refuse(mail)) {
          callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          return;
        }
        mails.push(mail);
        const index = waiters.findIndex((w) => mail.to.includes(w.address) && w.match(mail));
        if (index >= 0) {
          taken.add(mail);
          waiters.splice(index, 1)[0].resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    port: address.port,
    mails,
    next(address, match = () => true, ms = 30_000) {
      const seen = mails.find(
        (mail) => !taken.has(mail) && mail.to.includes(address) && match(mail),
      );
      if (seen) {
        taken.add(seen);
        return Promise.resolve(seen);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no mail to ${address} within ${ms} ms`)),
          ms,
        );
        waiters.push({
          address,
          match,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A `next` filter: the mail's subject matches `pattern`. */
export const subjectIs = (pattern: RegExp) => (mail: CapturedMail) =>
  pattern.test(/^Subject: (.*)$/m.exec(mail.raw)?.[1] ?? '');

/** The first link to `path` (`/verify-email`, on whatever origin) in a mail's text part. */
export async function linkIn(mail: CapturedMail, path: string): Promise<URL> {
  const text = (await simpleParser(mail.raw)).text ?? '';
  const match = new RegExp(`https?://[^\\s/]+${path}\\?token=[A-Za-z0-9_-]+`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return new URL(match[0]);
}

/** The 6-digit code of a login-code mail. */
export function codeOf(mail: CapturedMail): string {
  const match = /login code is (\d{6})/.exec(mail.raw);
  if (!match) throw new Error(`no code in mail:\n${mail.raw}`);
  return match[1];
}

/**
 * Whether the mail says `text`, read as a mail reader would: quoted-printable soft line breaks
 * joined and `=XX` escapes decoded. The raw source can fold a sentence across lines (`assigned
 * to=\r\n you.`) depending on what precedes it, e.g. when two notifications share one mail.
 */
export function mailSays(mail: CapturedMail, text: string): boolean {
  const bytes = mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  // Each escape was one byte of UTF-8.
  const unfolded = Buffer.from(bytes, 'latin1').toString('utf8');
  return mail.raw.includes(text) || unfolded.includes(text);
}
