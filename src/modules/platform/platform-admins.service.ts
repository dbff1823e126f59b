import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import type { SqlExecutor } from '../../database/sql';
import { PlatformRepository } from './platform.repository';

/** What `admin:grant` or `admin:revoke` did to the login of an address. */
export interface AdminChange {
  loginId: string;
  email: string;
  /** Granted (or taken back) now; false when it already was (or was not). */
  changed: boolean;
  /** Whether a mailed link ever reached the login's address (the CLI warns when none did). */
  confirmedByLink: boolean;
}

/**
 * Who is a platform administrator (DESIGN section 13): a login granted with `npm run cli --
 * admin:grant <email>` (by its id: the address names an existing login, or nothing is granted), or
 * a login its person signed up for and confirmed by the mailed link, at an address
 * PLATFORM_ADMIN_EMAILS lists. A member an owner made or invited at a listed address is not one.
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

  /** From the CLI: grants the address's login and logs it, in one transaction; undefined: none. */
  grant(email: string): Promise<AdminChange | undefined> {
    return this.change(email, 'platform_admin.granted', (manager, loginId) =>
      this.repository.grant(manager, loginId, 'cli'),
    );
  }

  revoke(email: string): Promise<AdminChange | undefined> {
    return this.change(email, 'platform_admin.revoked', (manager, loginId) =>
      this.repository.revoke(manager, loginId),
    );
  }

  private change(
    email: string,
    action: string,
    apply: (manager: SqlExecutor, loginId: string) => Promise<boolean>,
  ): Promise<AdminChange | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const login = await this.repository.loginByEmail(manager, email.trim());
      if (!login) return undefined;
      const changed = await apply(manager, login.id);
      if (changed)
        await this.repository.log(
          manager,
          { type: 'cli' },
          {
            action,
            targetType: 'platform_admin',
            targetId: login.id,
            changes: { email: login.email.toLowerCase() },
          },
        );
      return {
        loginId: login.id,
        email: login.email.toLowerCase(),
        changed,
        confirmedByLink: login.email_verified_by_link_at !== null,
      };
    });
  }
}
