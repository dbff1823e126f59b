import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { isUniqueViolation } from '../../database/sql';
import { newMailToken } from '../mail/mail-tokens';
import { SitesService } from '../sites/sites.service';
import { type EmailInboxRow, EmailInboxesRepository } from './email-inboxes.repository';

export interface InboxInput {
  name?: string;
  address?: string;
  site_id?: number;
  acknowledge?: boolean;
}

/**
 * Email inboxes (DESIGN section 9): a support address whose new mail opens tickets. The service
 * gives each a forwarding address (`inbox-<token>@MAIL_REPLY_DOMAIN`) the owner forwards it to.
 */
@Injectable()
export class EmailInboxesService {
  constructor(
    private readonly inboxes: EmailInboxesRepository,
    private readonly sites: SitesService,
    private readonly config: AppConfig,
  ) {}

  forwardingAddress(inbox: Pick<EmailInboxRow, 'forwarding_token'>): string {
    return `inbox-${inbox.forwarding_token}@${this.config.mailReplyDomain}`;
  }

  async create(
    organizationId: string,
    input: Required<Pick<InboxInput, 'name' | 'address'>> & InboxInput,
  ) {
    const siteId = await this.siteOf(organizationId, input.site_id);
    return this.unique(() =>
      this.inboxes.insert(organizationId, {
        siteId,
        name: input.name,
        address: input.address.toLowerCase(),
        forwardingToken: newMailToken(),
        acknowledge: input.acknowledge ?? true,
      }),
    );
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
    const siteId =
      input.site_id === undefined ? undefined : await this.siteOf(organizationId, input.site_id);
    const row = await this.unique(() =>
      this.inboxes.update(organizationId, id, {
        siteId,
        name: input.name,
        address: input.address?.toLowerCase(),
        acknowledge: input.acknowledge,
      }),
    );
    if (!row) throw AppError.notFound();
    return row;
  }

  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.inboxes.delete(organizationId, id))) throw AppError.notFound();
  }

  /** The inbox of an incoming mail's recipient: its forwarding address or its support address. */
  forRecipient(address: string): Promise<EmailInboxRow | undefined> {
    const lower = address.trim().toLowerCase();
    const forwarding = /^inbox-([a-z2-7]{32})@(.+)$/.exec(lower);
    const token =
      forwarding && forwarding[2] === this.config.mailReplyDomain ? forwarding[1] : null;
    return this.inboxes.findForMail(token, lower);
  }

  private async siteOf(organizationId: string, siteId: number | undefined): Promise<string> {
    if (siteId === undefined) {
      const first = (
        await this.sites.page(organizationId, { oldestFirst: true }, { perPage: 1, offset: 0 })
      ).rows[0];
      if (!first) throw AppError.invalid('site_id', 'The organization has no site.');
      return first.id;
    }
    const site = await this.sites.findActive(organizationId, String(siteId));
    if (!site)
      throw AppError.invalid('site_id', 'The selected site_id is not a site of this organization.');
    return site.id;
  }

  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw AppError.conflict('Another inbox already uses this address.');
      }
      throw error;
    }
  }
}
