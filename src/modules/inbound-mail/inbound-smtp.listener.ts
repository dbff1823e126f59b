import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import type { SMTPServer, SMTPServerSession } from 'smtp-server';
import { lazyModule } from '../../common/lazy-module';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { AppConfig } from '../../config/app-config';
import { InboundMailService } from './inbound-mail.service';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
const smtpServer = lazyModule(() => require('smtp-server') as typeof import('smtp-server'));

/** Refused recipients one SMTP session may name; the next one ends it. */
const MAX_REFUSED_RECIPIENTS = 3;

/** An SMTP reply to the client: `code` and a short text. */
function smtpError(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

/**
 * The built-in SMTP door (INBOUND_SMTP_PORT): mail for our reply addresses only (never a relay:
 * any other recipient is a 550), at most INBOUND_MAIL_MAX_BYTES (552), at most
 * INBOUND_SMTP_RATE_PER_MINUTE mails and refused recipients per client address (451, try later;
 * a few refused recipients end the session). A mail is stored and
 * parsed before the DATA reply; once stored it is ours (250) even if parsing must be retried.
 */
@Injectable()
export class InboundSmtpListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('inbound-smtp');
  private server?: SMTPServer;
  /** Refused RCPT TOs of each open session (the session object lives as long as its connection). */
  private readonly refusedRecipients = new WeakMap<SMTPServerSession, number>();

  constructor(
    private readonly inbound: InboundMailService,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.env.INBOUND_SMTP_PORT;
    if (port === undefined) return;
    const maxBytes = this.config.env.INBOUND_MAIL_MAX_BYTES;
    this.server = new (smtpServer().SMTPServer)({
      name: this.config.mailReplyDomain,
      banner: 'support-chat inbound mail',
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: maxBytes,
      maxClients: 100,
      logger: false,
      closeTimeout: 5_000,
      onMailFrom: (_address, session, callback) => {
        this.limits
          .hit(
            `inbound-smtp:${session.remoteAddress}`,
            this.config.env.INBOUND_SMTP_RATE_PER_MINUTE,
            60_000,
          )
          .then(
            (hit) =>
              hit.allowed
                ? callback()
                : callback(smtpError(451, 'Too many mails from your address; try again later')),
            () => callback(smtpError(451, 'Temporary failure; try again later')),
          );
      },
      onRcptTo: (address, session, callback) => {
        this.recipient(address.address, session).then(
          () => callback(),
          (error: Error) => callback(error),
        );
      },
      onData: (stream, session, callback) => {
        this.receive(stream, session).then(
          () => callback(),
          (error: Error) => callback(error),
        );
      },
    });
    this.server.on('error', (error) =>
      this.logger.warn({ msg: 'inbound SMTP error', error: error.message }),
    );
    await new Promise<void>((resolve, reject) => {
      this.server!.server.once('error', reject);
      this.server!.listen(port, this.config.env.INBOUND_SMTP_HOST, () => resolve());
    });
    const address = this.server.server.address() as AddressInfo;
    this.logger.log({ msg: 'inbound SMTP listening', inboundSmtpPort: address.port });
  }

  /**
   * A recipient we host is taken; a refused one counts against the client's rate
   * (INBOUND_SMTP_RATE_PER_MINUTE) like a mail, and past MAX_REFUSED_RECIPIENTS in one session
   * the session ends (421 closes it): otherwise one session could try hundreds of addresses and
   * learn from the one 250 which support addresses are hosted here.
   */
  private async recipient(address: string, session: SMTPServerSession): Promise<void> {
    let accepted: boolean;
    try {
      accepted = await this.inbound.acceptsRecipient(address);
    } catch {
      throw smtpError(451, 'Temporary failure; try again later');
    }
    if (accepted) return;
    const refused = (this.refusedRecipients.get(session) ?? 0) + 1;
    this.refusedRecipients.set(session, refused);
    const hit = await this.limits
      .hit(
        `inbound-smtp:${session.remoteAddress}`,
        this.config.env.INBOUND_SMTP_RATE_PER_MINUTE,
        60_000,
      )
      .catch(() => undefined);
    if (!hit?.allowed || refused > MAX_REFUSED_RECIPIENTS) {
      this.logger.warn({
        msg: 'SMTP session ended: too many refused recipients',
        client: session.remoteAddress,
        refused,
      });
      throw smtpError(421, 'Too many unknown recipients; closing the connection');
    }
    throw smtpError(550, 'No such recipient here (this server is not a relay)');
  }

  private async receive(stream: Readable & { sizeExceeded?: boolean }, session: SMTPServerSession) {
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // Past the limit the rest is read and dropped (smtp-server sets sizeExceeded).
      if (!stream.sizeExceeded) chunks.push(chunk);
    }
    if (stream.sizeExceeded) {
      this.logger.warn({ msg: 'incoming mail refused: too large', client: session.remoteAddress });
      throw smtpError(552, 'Message exceeds the size limit');
    }
    const result = await this.inbound.accept(Buffer.concat(chunks), {
      door: 'smtp',
      clientAddress: session.remoteAddress,
      envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
      envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
    });
    if (result.status === 'rejected') {
      throw smtpError(550, `Message refused: ${result.outcome.replace('_', ' ')}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
