import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pageOf, sql } from '../../database/sql';

export interface EmailInboxRow {
  id: string;
  organization_id: string;
  site_id: string;
  name: string;
  address: string;
  forwarding_token: string;
  acknowledge: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id::text AS id, organization_id::text AS organization_id, site_id::text AS site_id,
  name, address, forwarding_token, acknowledge, created_at, updated_at`;

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
    const [row] = await sql<EmailInboxRow>(
      this.dataSource,
      `INSERT INTO email_inboxes (organization_id, site_id, name, address, forwarding_token, acknowledge)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
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
    const [row] = await sql<EmailInboxRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM email_inboxes WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return row;
  }

  page(organizationId: string, page: { perPage: number; offset: number }) {
    return pageOf<EmailInboxRow>(
      this.dataSource,
      {
        columns: COLUMNS,
        from: 'email_inboxes',
        where: 'organization_id = $1',
        parameters: [organizationId],
        orderBy: 'id DESC',
      },
      page,
    );
  }

  async update(
    organizationId: string,
    id: string,
    changes: { siteId?: string; name?: string; address?: string; acknowledge?: boolean },
  ): Promise<EmailInboxRow | undefined> {
    const [row] = await sql<EmailInboxRow>(
      this.dataSource,
      `UPDATE email_inboxes SET site_id = coalesce($3, site_id), name = coalesce($4, name),
         address = coalesce($5, address), acknowledge = coalesce($6, acknowledge), updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
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
      `DELETE FROM email_inboxes WHERE organization_id = $1 AND id = $2 RETURNING id`,
      [organizationId, id],
    );
    return rows.length > 0;
  }

  /** The inbox a mail was sent to: by its forwarding token or its support address. */
  async findForMail(
    forwardingToken: string | null,
    address: string,
  ): Promise<EmailInboxRow | undefined> {
    const [row] = await sql<EmailInboxRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM email_inboxes
       WHERE ($1::text IS NOT NULL AND forwarding_token = $1) OR lower(address) = lower($2)
       ORDER BY (forwarding_token = $1) DESC NULLS LAST LIMIT 1`,
      [forwardingToken, address],
    );
    return row;
  }
}
