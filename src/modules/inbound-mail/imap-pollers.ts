import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { parseAllowedTargets, type TargetPolicy } from '../../common/net/target-policy';
import { AppConfig } from '../../config/app-config';
import { BackgroundWorker, type BackgroundLoop } from '../../queue/queue-worker';
import { EmailInboxesService } from '../email-inboxes/email-inboxes.service';
import { ImapMailbox, MailboxError } from './imap-mailbox';
import { InboundMailService } from './inbound-mail.service';

/** How many rounds a lease outlives its last renewal (an instance that died frees it then). */
const LEASE_ROUNDS = 3;
/** The longest time between two rounds: a new or changed mailbox is picked up this soon. */
const MAX_ROUND_SECONDS = 10;

interface Reading {
  mailbox: ImapMailbox;
  /** The settings it was opened with: a change of the inbox reopens it. */
  updatedAt: number;
  lastPoll: number;
}

/**
 * The IMAP door (DESIGN section 9): every round (IMAP_POLL_SECONDS, at most 10 s), where workers
 * run, each instance looks at the inboxes that read a mailbox. A mailbox is read by the one
 * instance holding its lease (columns of `email_inboxes`, renewed every round, free once it has
 * not been renewed for LEASE_ROUNDS rounds); it stays connected, hears of new mail by IDLE and
 * looks again every IMAP_POLL_SECONDS. A mailbox that failed is tried again after
 * IMAP_POLL_SECONDS, or at once when its settings change. Each mail goes into the one incoming
 * pipeline (stored, then parsed) as by the other doors, addressed to the inbox's support address.
 */
@Injectable()
@BackgroundWorker()
export class ImapPollers implements BackgroundLoop {
  private readonly logger = new Logger('inbound-imap');
  private readonly owner = randomUUID();
  private readonly reading = new Map<string, Reading>();
  /** Mailboxes that failed to open: when, and with which settings. */
  private readonly failed = new Map<string, { at: number; updatedAt: number }>();
  private readonly policy: TargetPolicy;
  private timer?: NodeJS.Timeout;
  private round?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly inboxes: EmailInboxesService,
    private readonly inbound: InboundMailService,
    private readonly config: AppConfig,
  ) {
    this.policy = {
      allowed: parseAllowedTargets(config.env.IMAP_ALLOWED_HOSTS),
      ownDatabase: [],
    };
  }

  start(): Promise<void> {
    const run = () => {
      if (this.round || this.stopped) return;
      this.round = this.sweep()
        .catch((error: unknown) =>
          this.logger.warn({ msg: 'IMAP round failed', error: String(error) }),
        )
        .finally(() => {
          this.round = undefined;
        });
    };
    run();
    this.timer = setInterval(run, this.roundSeconds * 1000);
    this.timer.unref();
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.round;
    const mailboxes = await this.inboxes.imapMailboxes().catch(() => []);
    await Promise.all(
      [...this.reading.keys()].map(async (id) => {
        await this.close(id);
        const row = mailboxes.find((mailbox) => mailbox.id === id);
        if (row) await this.inboxes.releaseImapLease(row, this.owner).catch(() => undefined);
      }),
    );
  }

  private get roundSeconds(): number {
    return Math.min(this.config.env.IMAP_POLL_SECONDS, MAX_ROUND_SECONDS);
  }

  private async sweep(): Promise<void> {
    const mailboxes = await this.inboxes.imapMailboxes();
    const present = new Set(mailboxes.map((mailbox) => mailbox.id));
    // Inboxes deleted, or no longer reading a mailbox.
    for (const id of this.reading.keys()) if (!present.has(id)) await this.close(id);
    const pollMs = this.config.env.IMAP_POLL_SECONDS * 1000;
    for (const row of mailboxes) {
      if (this.stopped) return;
      const updatedAt = row.updatedAt.getTime();
      const failed = this.failed.get(row.id);
      if (failed && failed.updatedAt === updatedAt && Date.now() - failed.at < pollMs) continue;
      const held = await this.inboxes.takeImapLease(
        row,
        this.owner,
        this.roundSeconds * LEASE_ROUNDS,
      );
      const current = this.reading.get(row.id);
      if (!held) {
        // Another instance reads it (this one lost its lease, e.g. after a long pause).
        if (current) await this.close(row.id);
        continue;
      }
      if (current && current.mailbox.alive && current.updatedAt === updatedAt) {
        if (Date.now() - current.lastPoll >= pollMs) {
          current.lastPoll = Date.now();
          await current.mailbox.poll();
        }
        continue;
      }
      if (current) await this.close(row.id);
      await this.open(row);
    }
  }

  private async open(
    row: Awaited<ReturnType<EmailInboxesService['imapMailboxes']>>[number],
  ): Promise<void> {
    const context = { organizationId: row.organizationId, inboxId: row.id };
    const mailbox = new ImapMailbox(
      {
        host: row.host,
        port: row.port,
        tls: row.tls,
        user: row.user,
        password: this.inboxes.imapPassword(row),
        folder: row.folder,
      },
      async (raw) => {
        const result = await this.inbound.accept(raw, { door: 'imap', envelopeTo: [row.address] });
        this.logger.log({
          msg: 'mail taken from IMAP',
          ...context,
          id: result.id,
          status: result.status,
        });
      },
      this.logger,
      context,
    );
    await this.inboxes.recordImapStatus(row, this.owner, 'connecting');
    const updatedAt = row.updatedAt.getTime();
    try {
      await mailbox.open(this.policy);
      this.failed.delete(row.id);
    } catch (error) {
      this.failed.set(row.id, { at: Date.now(), updatedAt });
      const reason =
        error instanceof MailboxError ? error.message : 'The mailbox could not be read.';
      if (!(error instanceof MailboxError)) {
        this.logger.warn({ msg: 'IMAP open failed', ...context, error: String(error) });
      }
      await this.inboxes.recordImapStatus(row, this.owner, 'failed', reason);
      return;
    }
    this.reading.set(row.id, { mailbox, updatedAt, lastPoll: Date.now() });
    await this.inboxes.recordImapStatus(row, this.owner, 'connected');
    this.logger.log({ msg: 'IMAP mailbox connected', ...context });
    await mailbox.poll();
  }

  private async close(id: string): Promise<void> {
    const current = this.reading.get(id);
    if (!current) return;
    this.reading.delete(id);
    await current.mailbox.close().catch(() => undefined);
  }
}
