import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { sql } from '../../database/sql';
import { parseKey, SecretBox } from './secret-box';

/**
 * The service's SecretBox. Its key is SECRETS_KEY when set (keep it outside the database in
 * production), else the key a migration generated into `service_secrets`.
 */
@Injectable()
export class SecretBoxService implements OnModuleInit {
  private box?: SecretBox;

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.env.SECRETS_KEY) {
      this.box = new SecretBox(parseKey(this.config.env.SECRETS_KEY));
      return;
    }
    const rows = await sql<{ value: string }>(
      this.dataSource,
      `SELECT value FROM service_secrets WHERE name = 'secrets_key'`,
    );
    if (!rows[0]) throw new Error('service_secrets has no secrets_key: run migrations');
    this.box = new SecretBox(Buffer.from(rows[0].value, 'hex'));
  }

  seal(plain: string): string {
    return this.ready().seal(plain);
  }

  open(sealed: string): string {
    return this.ready().open(sealed);
  }

  private ready(): SecretBox {
    if (!this.box) throw new Error('SecretBoxService used before initialisation');
    return this.box;
  }
}
