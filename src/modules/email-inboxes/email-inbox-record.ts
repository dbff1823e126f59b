import type { EmailInboxRow, ImapMailboxRow } from './email-inboxes.repository';

/**
 * An email inbox as the incoming mail sees it (issue 32, point 7): which organization and site
 * its mail goes to and whether the sender is acknowledged. Mapped once from the table's row here,
 * so no feature but this one depends on `EmailInboxRow`.
 */
export interface EmailInboxRecord {
  id: string;
  organizationId: string;
  siteId: string;
  address: string;
  acknowledge: boolean;
}

export const toEmailInboxRecord = (row: EmailInboxRow): EmailInboxRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  siteId: row.site_id,
  address: row.address,
  acknowledge: row.acknowledge,
});

/**
 * An inbox's mailbox as the IMAP pollers (inbound mail) need it, the password still sealed: what
 * `EmailInboxesService.imapMailboxes` answers and its lease and status methods take back.
 */
export interface ImapMailboxRecord {
  id: string;
  organizationId: string;
  address: string;
  host: string;
  port: number;
  tls: boolean;
  user: string;
  /** Opened by `EmailInboxesService.imapPassword` for the connection only. */
  passwordSealed: string;
  folder: string;
  /** Changes with any change of the inbox: a poller reconnects with the new settings. */
  updatedAt: Date;
}

export const toImapMailboxRecord = (row: ImapMailboxRow): ImapMailboxRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  address: row.address,
  host: row.host,
  port: row.port,
  tls: row.tls,
  user: row.user,
  passwordSealed: row.password_sealed,
  folder: row.folder,
  updatedAt: row.updated_at,
});
