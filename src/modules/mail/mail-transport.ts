import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { SendMailOptions, Transporter } from 'nodemailer';
import { AppConfig } from '../../config/app-config';

/** The SMTP connection of SMTP_URL, made on the first mail (most instances never send one). */
@Injectable()
export class MailTransport implements OnApplicationShutdown {
  private transport?: Transporter;

  constructor(private readonly config: AppConfig) {}

  get configured(): boolean {
    return Boolean(this.config.env.SMTP_URL);
  }

  async send(options: SendMailOptions): Promise<void> {
    const url = this.config.env.SMTP_URL;
    if (!url) throw new Error('SMTP_URL is unset');
    // Loaded on the first mail (bench/README.md, Idle memory). A pool of SMTP_POOL_SIZE
    // connections: a burst of mails does not open one connection each.
    this.transport ??= (await import('nodemailer')).createTransport(url, {
      pool: true,
      maxConnections: this.config.env.SMTP_POOL_SIZE,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as object);
    await this.transport.sendMail(options);
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
