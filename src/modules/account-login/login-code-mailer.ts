import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import { MetricsRegistry } from '../../common/metrics/metrics-registry';
import { AppConfig } from '../../config/app-config';

/**
 * Sends one-time login codes over SMTP (`SMTP_URL`, from `MAIL_FROM`). Without SMTP_URL the mail
 * is written to the log instead, code included, so a local setup can still log in; never in
 * production (NODE_ENV=production), where a log line must not hold a credential: there the mail
 * is dropped with a warning naming no code.
 */
@Injectable()
export class LoginCodeMailer implements OnApplicationShutdown {
  private readonly logger = new Logger('login-code-mail');
  private transport?: Transporter;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsRegistry,
  ) {}

  async send(mail: { to: string; name: string | null; code: string; minutes: number }) {
    const greeting = mail.name ? `Hello ${mail.name},` : 'Hello,';
    const text = `${greeting}\n\nYour login code is ${mail.code}. It is valid for ${mail.minutes} minutes and can be used once.\n\nIf you did not ask for it, ignore this mail.\n`;
    const url = this.config.env.SMTP_URL;
    if (!url) {
      if (this.config.env.NODE_ENV === 'production') {
        this.logger.warn({ msg: 'login code mail not sent: SMTP_URL is unset' });
      } else {
        this.logger.log({ msg: 'login code mail (SMTP_URL unset)', to: mail.to, code: mail.code });
      }
      return;
    }
    // Loaded on the first mail: most instances never send one (bench/README.md, Idle memory).
    this.transport ??= (await import('nodemailer')).createTransport(url);
    try {
      await this.transport.sendMail({
        from: this.config.env.MAIL_FROM,
        to: mail.to,
        subject: `Your login code: ${mail.code}`,
        text,
      });
    } catch (error) {
      this.metrics.mailed('login_code', 'failed');
      throw error;
    }
    this.metrics.mailed('login_code', 'sent');
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
