import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { MailRepository } from './mail.repository';

/**
 * Never held: mail a person asked for and waits for at the screen (each limited per address where
 * it is asked for), and ticket acknowledgements (capped on their own, MAIL_ACKS_PER_HOUR_*, and
 * pointless an hour late). Every other kind counts when it goes to a new address.
 */
const NEVER_HELD = new Set([
  'login_code',
  'password_reset',
  'email_verification',
  'ticket_acknowledgement',
]);

/**
 * The hourly budget of mail to new addresses (DESIGN section 9, issue 40 point 8): an
 * organization may mail at most MAIL_NEW_RECIPIENTS_PER_HOUR_PER_ORG new addresses an hour (not a
 * member, never mailed before; a mail received from an address does not count, its `From` may be
 * forged). Past it a mail waits, still queued, until a place frees up, and the mail log says so:
 * agents cannot make a hosted service a mailer to strangers (ticket comments to forged senders,
 * invitations to anyone), and a legitimate team keeps its sending reputation.
 */
@Injectable()
export class NewRecipientBudget {
  constructor(
    private readonly repository: MailRepository,
    private readonly config: AppConfig,
  ) {}

  /** Undefined: the mail may go now; else when it may. */
  async waitUntil(
    organizationId: string,
    kind: string,
    recipient: string,
  ): Promise<Date | undefined> {
    if (NEVER_HELD.has(kind)) return undefined;
    const address = recipient.toLowerCase();
    if (await this.repository.knownRecipient(organizationId, address)) return undefined;
    const admission = await this.repository.admitNewRecipient(
      organizationId,
      address,
      this.config.env.MAIL_NEW_RECIPIENTS_PER_HOUR_PER_ORG,
    );
    return admission.admitted ? undefined : admission.freeAt;
  }
}
