import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { handTyped, pageOf, query, sql } from '../../database/sql';

/** Where the IMAP connection of an inbox stands (`email_inboxes.imap_status`). */
export type ImapStatus = 'connecting' | 'connected' | 'failed';

export interface EmailInboxRow {
  id: string;
  organization_id: string;
  site_id: string;
  name: string;
  address: string;
  forwarding_token: string;
  acknowledge: boolean;
  imap_host: string | null;
  imap_port: number | null;
  imap_tls: boolean | null;
  imap_user: string | null;
  imap_folder: string | null;
  imap_status: ImapStatus | null;
  imap_error: string | null;
  imap_checked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An inbox's mailbox as a poller needs it (the password still sealed). */
export interface ImapMailboxRow {
  id: string;
  organization_id: string;
  address: string;
  host: string;
  port: number;
  tls: boolean;
  user: string;
  password_sealed: string;
  folder: string;
  /** Changes with any change of the inbox: a poller reconnects with the new settings. */
  updated_at: Date;
}

/** New IMAP settings; `passwordSealed` null keeps the stored password. */
export interface ImapSettings {
  host: string;
  port: number;
  tls: boolean;
  user: string;
  passwordSealed: string | null;
  folder: string;
}

/** An organization's email inboxes; every statement names the organization but the mail lookup. */
@Injectable()
export class EmailInboxesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    organizationId: string,
    inbox: {
      siteId: string;
      name: string;
      address: string;
      forwardingToken: string;
      acknowledge: boolean;
    },
  ): Promise<EmailInboxRow> {
    const [row] = await sql(
      this.dataSource,
      handTyped<EmailInboxRow>`INSERT INTO email_inboxes (organization_id, site_id, name, address, forwarding_token, acknowledge)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text AS id, organization_id::text AS organization_id, site_id::text AS site_id,
         name, address, forwarding_token, acknowledge, imap_host, imap_port, imap_tls, imap_user,
         imap_folder, imap_status, imap_error, imap_checked_at, created_at, updated_at`,
      [
        organizationId,
        inbox.siteId,
        inbox.name,
        inbox.address,
        inbox.forwardingToken,
        inbox.acknowledge,
      ],
    );
    return row;
  }

  async find(organizationId: string, id: string): Promise<EmailInboxRow | undefined> {
    const [row] = await sql(
      this.dataSource,
      handTyped<EmailInboxRow>`SELECT id::text AS id, organization_id::text AS organization_id, site_id::text AS site_id,
         name, address, forwarding_token, acknowledge, imap_host, imap_port, imap_tls, imap_user,
         imap_folder, imap_status, imap_error, imap_checked_at, created_at, updated_at FROM email_inboxes WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return row;
  }

  page(organizationId: string, page: { perPage: number; offset: number }) {
    return pageOf(
      this.dataSource,
      {
        rows: handTyped<EmailInboxRow>`SELECT id::text AS id, organization_id::text AS organization_id, site_id::text AS site_id,
  name, address, forwarding_token, acknowledge, imap_host, imap_port, imap_tls, imap_user,
  imap_folder, imap_status, imap_error, imap_checked_at, created_at, updated_at FROM email_inboxes
          WHERE organization_id = $1
          ORDER BY id DESC LIMIT $2 OFFSET $3`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM email_inboxes
          WHERE organization_id = $1`,
      },
      [organizationId],
      page,
    );
  }

  async update(
    organizationId: string,
    id: string,
    changes: { siteId?: string; name?: string; address?: string; acknowledge?: boolean },
  ): Promise<EmailInboxRow | undefined> {
    const [row] = await sql(
      this.dataSource,
      handTyped<EmailInboxRow>`UPDATE email_inboxes SET site_id = coalesce($3, site_id), name = coalesce($4, name),
         address = coalesce($5, address), acknowledge = coalesce($6, acknowledge), updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING id::text AS id, organization_id::text AS organization_id, site_id::text AS site_id,
         name, address, forwarding_token, acknowledge, imap_host, imap_port, imap_tls, imap_user,
         imap_folder, imap_status, imap_error, imap_checked_at, created_at, updated_at`,
      [
        organizationId,
        id,
        changes.siteId ?? null,
        changes.name ?? null,
        changes.address ?? null,
        changes.acknowledge ?? null,
      ],
    );
    return row;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`DELETE FROM email_inboxes WHERE organization_id = $1 AND id = $2 RETURNING id`,
      [organizationId, id],
    );
    return rows.length > 0;
  }

  /** Whether the inbox has a stored IMAP password (new settings may then leave it out). */
  async hasImapPassword(organizationId: string, id: string): Promise<boolean> {
    const [row] = await sql(
      this.dataSource,
      query<{
        stored: boolean;
      }>`SELECT imap_password_sealed IS NOT NULL AS stored FROM email_inboxes
       WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return row?.stored === true;
  }

  /**
   * Sets (or with null, clears) the inbox's mailbox. The outcome of the last read is cleared and
   * `updated_at` moves, so the instance reading it reconnects with the new settings.
   */
  async setImap(
    organizationId: string,
    id: string,
    imap: ImapSettings | null,
  ): Promise<EmailInboxRow | undefined> {
    const [row] = await sql(
      this.dataSource,
      handTyped<EmailInboxRow>`UPDATE email_inboxes SET imap_host = $3, imap_port = $4, imap_tls = $5, imap_user = $6,
         imap_password_sealed = CASE WHEN $3::text IS NULL THEN NULL
                                     ELSE coalesce($7, imap_password_sealed) END,
         imap_folder = $8, imap_status = NULL, imap_error = NULL, imap_checked_at = NULL,
         imap_lease_owner = CASE WHEN $3::text IS NULL THEN NULL ELSE imap_lease_owner END,
         imap_lease_until = CASE WHEN $3::text IS NULL THEN NULL ELSE imap_lease_until END,
         updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING id::text AS id, organization_id::text AS organization_id, site_id::text AS site_id,
         name, address, forwarding_token, acknowledge, imap_host, imap_port, imap_tls, imap_user,
         imap_folder, imap_status, imap_error, imap_checked_at, created_at, updated_at`,
      [
        organizationId,
        id,
        imap?.host ?? null,
        imap?.port ?? null,
        imap?.tls ?? null,
        imap?.user ?? null,
        imap?.passwordSealed ?? null,
        imap?.folder ?? null,
      ],
    );
    return row;
  }

  /** Every inbox that reads a mailbox, across organizations: what the IMAP pollers share out. */
  async imapMailboxes(): Promise<ImapMailboxRow[]> {
    return sql(
      this.dataSource,
      handTyped<ImapMailboxRow>`SELECT id::text AS id, organization_id::text AS organization_id, address,
         imap_host AS host, imap_port AS port, imap_tls AS tls, imap_user AS user,
         imap_password_sealed AS password_sealed, imap_folder AS folder, updated_at
       FROM email_inboxes
       WHERE imap_host IS NOT NULL AND imap_password_sealed IS NOT NULL
       ORDER BY id`,
    );
  }

  /**
   * Takes or renews the lease on the inbox's mailbox for `owner` (one instance), for `seconds`:
   * false while another instance holds a lease that has not run out.
   */
  async takeImapLease(
    organizationId: string,
    id: string,
    owner: string,
    seconds: number,
  ): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{ id: string }>`UPDATE email_inboxes SET imap_lease_owner = $3,
         imap_lease_until = now() + make_interval(secs => $4)
       WHERE organization_id = $1 AND id = $2 AND imap_host IS NOT NULL
         AND (imap_lease_owner IS NULL OR imap_lease_owner = $3 OR imap_lease_until < now())
       RETURNING id`,
      [organizationId, id, owner, seconds],
    );
    return rows.length > 0;
  }

  async releaseImapLease(organizationId: string, id: string, owner: string): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE email_inboxes SET imap_lease_owner = NULL, imap_lease_until = NULL
       WHERE organization_id = $1 AND id = $2 AND imap_lease_owner = $3`,
      [organizationId, id, owner],
    );
  }

  /** The outcome of reading the mailbox, for the owner to see (by the lease holder only). */
  async recordImapStatus(
    organizationId: string,
    id: string,
    owner: string,
    status: 'connecting' | 'connected' | 'failed',
    error: string | null,
  ): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE email_inboxes SET imap_status = $4, imap_error = $5, imap_checked_at = now()
       WHERE organization_id = $1 AND id = $2 AND imap_lease_owner = $3`,
      [organizationId, id, owner, status, error],
    );
  }

  /** The inbox a mail was sent to: by its forwarding token or its support address. */
  async findForMail(
    forwardingToken: string | null,
    address: string,
  ): Promise<EmailInboxRow | undefined> {
    const [row] = await sql(
      this.dataSource,
      handTyped<EmailInboxRow>`SELECT id::text AS id, organization_id::text AS organization_id, site_id::text AS site_id,
         name, address, forwarding_token, acknowledge, imap_host, imap_port, imap_tls, imap_user,
         imap_folder, imap_status, imap_error, imap_checked_at, created_at, updated_at FROM email_inboxes
       WHERE ($1::text IS NOT NULL AND forwarding_token = $1) OR lower(address) = lower($2)
       ORDER BY (forwarding_token = $1) DESC NULLS LAST LIMIT 1`,
      [forwardingToken, address],
    );
    return row;
  }
}
