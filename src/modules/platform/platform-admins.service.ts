import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { PlatformRepository } from './platform.repository';

/**
 * Who is a platform administrator: a login whose address PLATFORM_ADMIN_EMAILS lists, or one
 * granted with `npm run cli -- admin:grant <email>` (kept by address, so a grant made before the
 * account exists applies once it does).
 */
@Injectable()
export class PlatformAdminsService {
  private readonly listed: string[];

  constructor(
    private readonly repository: PlatformRepository,
    private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.listed = (config.env.PLATFORM_ADMIN_EMAILS ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter((email) => email.length > 0);
  }

  isAdmin(userId: string): Promise<boolean> {
    return this.repository.isAdmin(userId, this.listed);
  }

  /** From the CLI: grants and writes the operator log in one transaction. */
  grant(email: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const granted = await this.repository.grant(manager, email, 'cli');
      if (granted)
        await this.repository.log(
          manager,
          { type: 'cli' },
          {
            action: 'platform_admin.granted',
            targetType: 'platform_admin',
            targetId: email.toLowerCase(),
            changes: {},
          },
        );
      return granted;
    });
  }

  revoke(email: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const revoked = await this.repository.revoke(manager, email);
      if (revoked)
        await this.repository.log(
          manager,
          { type: 'cli' },
          {
            action: 'platform_admin.revoked',
            targetType: 'platform_admin',
            targetId: email.toLowerCase(),
            changes: {},
          },
        );
      return revoked;
    });
  }
}
