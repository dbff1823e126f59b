import type { Logger } from '@nestjs/common';
import type { ImapFlow } from 'imapflow';
import { lazyModule } from '../../common/lazy-module';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  allowedByOperator,
  normalizeHost,
  refusal,
  type TargetPolicy,
} from '../../common/net/target-policy';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
const imapflow = lazyModule(() => require('imapflow') as typeof import('imapflow'));

/** Where and how to read one mailbox. */
export interface MailboxSettings {
  host: string;
  port: number;
  tls: boolean;
  user: string;
  password: string;
  folder: string;
}

/** Why a mailbox could not be read, in words its owner can act on (the details go to the log). */
export class MailboxError extends Error {}

/** Takes one raw mail; resolves once it is stored (then it is marked seen). */
export type MailTaker = (raw: Buffer) => Promise<void>;

/** The address to connect to, checked against the policy after the name is resolved. */
async function checkedAddress(
  policy: TargetPolicy,
  host: string,
  port: number,
  logger: Logger,
): Promise<{ address: string; allowed: boolean }> {
  const name = normalizeHost(host);
  let addresses: string[];
  try {
    addresses = isIP(name) ? [name] : (await lookup(name, { all: true })).map((a) => a.address);
  } catch {
    throw new MailboxError(`The host ${host} was not found.`);
  }
  for (const address of addresses) {
    const reason = refusal(policy, { host: name, port, address });
    if (reason) {
      logger.warn({ msg: 'IMAP server refused by the address policy', host: name, reason });
      throw new MailboxError(
        'The server is on a private or loopback address, which this service does not connect to.',
      );
    }
  }
  if (addresses.length === 0) throw new MailboxError(`The host ${host} was not found.`);
  return {
    address: addresses[0],
    allowed: allowedByOperator(policy, { host: name, port, address: addresses[0] }),
  };
}

/**
 * One IMAP mailbox being read: connected (to the address the policy checked, so a name that
 * resolves elsewhere later changes nothing), the folder open, every unseen mail handed to
 * `take` and marked seen once taken. The server's IDLE (used by imapflow on its own once the
 * connection is quiet) announces new mail at once; `poll` looks again in any case.
 */
export class ImapMailbox {
  private client?: ImapFlow;
  private polling?: Promise<void>;
  private again = false;
  private closed = false;

  constructor(
    private readonly settings: MailboxSettings,
    private readonly take: MailTaker,
    private readonly logger: Logger,
    private readonly context: Record<string, unknown>,
  ) {}

  /** Whether the connection is still up (else the poller connects again). */
  get alive(): boolean {
    return !this.closed && this.client?.usable === true;
  }

  async open(policy: TargetPolicy): Promise<void> {
    const { host, port, tls } = this.settings;
    const target = await checkedAddress(policy, host, port, this.logger);
    const client = new (imapflow().ImapFlow)({
      host: target.address,
      port,
      secure: tls,
      // The certificate is checked against the name the owner gave, not the address.
      servername: isIP(normalizeHost(host)) ? undefined : normalizeHost(host),
      // Without TLS from the start, STARTTLS is required, but on a server the operator allowed.
      doSTARTTLS: tls ? undefined : target.allowed ? undefined : true,
      auth: { user: this.settings.user, pass: this.settings.password },
      logger: false,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      // Into IDLE soon after each look, so new mail is announced rather than waited for.
      autoIdleDelay: 1_000,
    });
    client.on('error', (error: Error) =>
      this.logger.warn({ msg: 'IMAP connection error', ...this.context, error: error.message }),
    );
    client.on('close', () => {
      this.closed = true;
    });
    client.on('exists', () => {
      void this.poll();
    });
    this.client = client;
    try {
      await client.connect();
    } catch (error) {
      const failed = error as Error & { authenticationFailed?: boolean; code?: string };
      this.logger.warn({ msg: 'IMAP connect failed', ...this.context, error: failed.message });
      throw new MailboxError(
        failed.authenticationFailed
          ? 'The server refused the user name or password.'
          : `Could not connect: ${failed.code ?? failed.message}`.slice(0, 300),
      );
    }
    try {
      await client.mailboxOpen(this.settings.folder);
    } catch (error) {
      await this.close();
      this.logger.warn({
        msg: 'IMAP folder could not be opened',
        ...this.context,
        error: (error as Error).message,
      });
      throw new MailboxError(`The folder ${this.settings.folder} could not be opened.`);
    }
  }

  /**
   * Takes every unseen mail of the folder, oldest first; calls while one runs make it look once
   * more when it ends. A mail that could not be stored stays unseen and is tried next time.
   */
  poll(): Promise<void> {
    if (this.polling) {
      this.again = true;
      return this.polling;
    }
    this.polling = (async () => {
      do {
        this.again = false;
        await this.takeUnseen();
      } while (this.again && this.alive);
    })()
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'IMAP read failed', ...this.context, error: String(error) }),
      )
      .finally(() => {
        this.polling = undefined;
      });
    return this.polling;
  }

  private async takeUnseen(): Promise<void> {
    const client = this.client;
    if (!client || !this.alive) return;
    const uids = (await client.search({ seen: false }, { uid: true })) || [];
    for (const uid of uids.sort((a, b) => a - b)) {
      if (!this.alive) return;
      const message = await client.fetchOne(String(uid), { source: true }, { uid: true });
      if (!message || !message.source) continue;
      // Stored first, seen after: a crash in between takes it again (Message-ID makes it once).
      await this.take(message.source);
      await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    if (!client) return;
    await this.polling;
    try {
      await client.logout();
    } catch {
      client.close();
    }
  }
}
