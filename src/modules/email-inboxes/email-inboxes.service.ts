import { Injectable } from '@nestjs/common';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { isUniqueViolation } from '../../database/sql';
import { newMailToken } from '../mail/mail-tokens';
import { SitesService } from '../sites/sites.service';
import {
  type EmailInboxRow,
  EmailInboxesRepository,
  type ImapSettings,
} from './email-inboxes.repository';
import {
  type EmailInboxRecord,
  type ImapMailboxRecord,
  toEmailInboxRecord,
  toImapMailboxRecord,
} from './email-inbox-record';

export type { EmailInboxRecord };

export type { ImapMailboxRecord } from './email-inbox-record';

export interface ImapInput {
  host: string;
  port?: number;
  tls?: boolean;
  user: string;
  password?: string;
  folder?: string;
}

export interface InboxInput {
  name?: string;
  address?: string;
  site_id?: number;
  acknowledge?: boolean;
  /** null: stop reading a mailbox; undefined: unchanged. */
  imap?: ImapInput | null;
}

/** Role addresses (RFC 2142) of the service's mail domains, never a tenant's inbox. */
const ROLE_ADDRESSES = ['postmaster', 'abuse', 'hostmaster', 'webmaster', 'noc', 'security'];

/**
 * Email inboxes (DESIGN section 9): a support address whose new mail opens tickets. The service
 * gives each a forwarding address (`inbox-<token>@MAIL_REPLY_DOMAIN`) the owner forwards it to.
 */
@Injectable()
export class EmailInboxesService {
  constructor(
    private readonly inboxes: EmailInboxesRepository,
    private readonly sites: SitesService,
    private readonly secrets: SecretBoxService,
    private readonly config: AppConfig,
  ) {}

  forwardingAddress(inbox: Pick<EmailInboxRow, 'forwarding_token'>): string {
    return `inbox-${inbox.forwarding_token}@${this.config.mailReplyDomain}`;
  }

  async create(
    organizationId: string,
    input: Required<Pick<InboxInput, 'name' | 'address'>> & InboxInput,
  ) {
    this.notReserved(input.address);
    const siteId = await this.siteOf(organizationId, input.site_id);
    if (input.imap) this.imapSettings(input.imap, false);
    const row = await this.unique(() =>
      this.inboxes.insert(organizationId, {
        siteId,
        name: input.name,
        address: input.address.toLowerCase(),
        forwardingToken: newMailToken(),
        acknowledge: input.acknowledge ?? true,
      }),
    );
    if (!input.imap) return row;
    return (await this.inboxes.setImap(
      organizationId,
      row.id,
      this.imapSettings(input.imap, false),
    ))!;
  }

  page(organizationId: string, page: { perPage: number; offset: number }) {
    return this.inboxes.page(organizationId, page);
  }

  async get(organizationId: string, id: string): Promise<EmailInboxRow> {
    const inbox = await this.inboxes.find(organizationId, id);
    if (!inbox) throw AppError.notFound();
    return inbox;
  }

  async update(organizationId: string, id: string, input: InboxInput): Promise<EmailInboxRow> {
    await this.get(organizationId, id);
    if (input.address !== undefined) this.notReserved(input.address);
    const siteId =
      input.site_id === undefined ? undefined : await this.siteOf(organizationId, input.site_id);
    const imap =
      input.imap === undefined
        ? undefined
        : input.imap === null
          ? null
          : this.imapSettings(input.imap, await this.inboxes.hasImapPassword(organizationId, id));
    const row = await this.unique(() =>
      this.inboxes.update(organizationId, id, {
        siteId,
        name: input.name,
        address: input.address?.toLowerCase(),
        acknowledge: input.acknowledge,
      }),
    );
    const updated = imap === undefined ? row : await this.inboxes.setImap(organizationId, id, imap);
    if (!updated) throw AppError.notFound();
    return updated;
  }

  /**
   * The service's own addresses cannot be a tenant's inbox: any address at MAIL_REPLY_DOMAIN
   * (reply and forwarding addresses, postmaster@ and abuse@ there), the MAIL_FROM address, and
   * the role addresses at MAIL_FROM's domain. Taken as an inbox, they would let a tenant read
   * the mail meant for the service (bounces, abuse reports, answers to our own sender).
   */
  private notReserved(address: string): void {
    const lower = address.toLowerCase();
    const [local, domain] = [
      lower.slice(0, lower.lastIndexOf('@')),
      lower.slice(lower.lastIndexOf('@') + 1),
    ];
    const from = this.config.env.MAIL_FROM.toLowerCase();
    const fromDomain = from.slice(from.lastIndexOf('@') + 1);
    if (
      domain === this.config.mailReplyDomain.toLowerCase() ||
      lower === from ||
      (domain === fromDomain && ROLE_ADDRESSES.includes(local))
    ) {
      throw AppError.invalid(
        'address',
        "The address is one of the service's own and cannot be an inbox.",
        'inbox_address_reserved',
      );
    }
  }

  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.inboxes.delete(organizationId, id))) throw AppError.notFound();
  }

  /** The inbox of an incoming mail's recipient: its forwarding address or its support address. */
  async forRecipient(address: string): Promise<EmailInboxRecord | undefined> {
    const lower = address.trim().toLowerCase();
    const forwarding = /^inbox-([a-z2-7]{32})@(.+)$/.exec(lower);
    const token =
      forwarding && forwarding[2] === this.config.mailReplyDomain ? forwarding[1] : null;
    const inbox = await this.inboxes.findForMail(token, lower);
    return inbox && toEmailInboxRecord(inbox);
  }

  /**
   * The settings to store: the port defaults by TLS, the folder to INBOX; the password is sealed
   * (a 422 when none is given and none is stored).
   */
  private imapSettings(input: ImapInput, passwordStored: boolean): ImapSettings {
    if (input.password === undefined && !passwordStored) {
      throw AppError.invalid('imap.password', 'The imap.password field is required.', 'required');
    }
    const tls = input.tls ?? true;
    return {
      host: input.host.replace(/^\[(.*)\]$/, '$1').toLowerCase(),
      port: input.port ?? (tls ? 993 : 143),
      tls,
      user: input.user,
      passwordSealed: input.password === undefined ? null : this.secrets.seal(input.password),
      folder: input.folder ?? 'INBOX',
    };
  }

  /** Every inbox that reads a mailbox, for the IMAP pollers (across organizations). */
  async imapMailboxes(): Promise<ImapMailboxRecord[]> {
    return (await this.inboxes.imapMailboxes()).map(toImapMailboxRecord);
  }

  /** The mailbox's password, unsealed for the connection only. */
  imapPassword(mailbox: ImapMailboxRecord): string {
    return this.secrets.open(mailbox.passwordSealed);
  }

  takeImapLease(mailbox: ImapMailboxRecord, owner: string, seconds: number): Promise<boolean> {
    return this.inboxes.takeImapLease(mailbox.organizationId, mailbox.id, owner, seconds);
  }

  releaseImapLease(mailbox: ImapMailboxRecord, owner: string): Promise<void> {
    return this.inboxes.releaseImapLease(mailbox.organizationId, mailbox.id, owner);
  }

  recordImapStatus(
    mailbox: ImapMailboxRecord,
    owner: string,
    status: 'connecting' | 'connected' | 'failed',
    error: string | null = null,
  ): Promise<void> {
    return this.inboxes.recordImapStatus(
      mailbox.organizationId,
      mailbox.id,
      owner,
      status,
      error === null ? null : error.slice(0, 500),
    );
  }

  private async siteOf(organizationId: string, siteId: number | undefined): Promise<string> {
    if (siteId === undefined) {
      const first = (
        await this.sites.page(organizationId, { oldestFirst: true }, { perPage: 1, offset: 0 })
      ).rows[0];
      if (!first)
        throw AppError.invalid(
          'site_id',
          'The organization has no site.',
          'organization_has_no_site',
        );
      return first.id;
    }
    const site = await this.sites.findActive(organizationId, String(siteId));
    if (!site)
      throw AppError.invalid(
        'site_id',
        'The selected site_id is not a site of this organization.',
        'site_not_in_organization',
      );
    return site.id;
  }

  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw AppError.conflict('Another inbox already uses this address.', 'inbox_address_taken');
      }
      throw error;
    }
  }
}
