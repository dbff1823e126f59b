import { Inject, Injectable } from '@nestjs/common';
import { randomBase62, sameBytes, sha256 } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { rateLimited } from '../../common/rate-limit/rate-limited';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { AuditLogService } from '../audit/audit-log.service';
import { DataLookupService } from '../data-lookup/data-lookup.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { SitesService } from '../sites/sites.service';
import { VisitorsService } from '../visitors/visitors.service';
import { type TrustedLoginRow, AccountLoginRepository } from './account-login.repository';
import { AccountLoginService } from './account-login.service';

export const TRUSTED_LOGIN_HEADER = 'X-Service-Visitor-Login-Secret';
const PREFIX_LENGTH = 8;

/**
 * Trusted login: the site owner's backend logs a visitor in by email, skipping the code, with the
 * organization's secret (`vls_` + 40 base62, stored as SHA-256, shown once). Owners and admins
 * create or rotate it (the old one stops at once) and switch the login on and off.
 */
@Injectable()
export class TrustedLoginService {
  constructor(
    private readonly repository: AccountLoginRepository,
    private readonly accountLogin: AccountLoginService,
    private readonly dataLookup: DataLookupService,
    private readonly organizations: OrganizationsService,
    private readonly sites: SitesService,
    private readonly visitors: VisitorsService,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
    private readonly dataSource: DataSource,
    private readonly audit: AuditLogService,
  ) {}

  async status(organizationId: string) {
    return this.toStatus(await this.repository.trusted(organizationId));
  }

  async rotate(organizationId: string) {
    await this.organizations.requireFeature(organizationId, 'trusted_login');
    const secret = `vls_${randomBase62(40)}`;
    const row = await this.dataSource.transaction(async (manager) => {
      const saved = await this.repository.saveTrustedSecret(
        organizationId,
        sha256(secret),
        secret.slice(0, PREFIX_LENGTH),
        manager,
      );
      await this.audit.record(manager, organizationId, {
        action: 'trusted_login.secret_rotated',
        target: { type: 'trusted_login', id: organizationId, label: 'Trusted login' },
        changes: { after: { secret_prefix: saved.secret_prefix, secret: secret } },
      });
      return saved;
    });
    return { plain_text_secret: secret, trusted_login: this.toStatus(row) };
  }

  async setEnabled(organizationId: string, enabled: boolean) {
    await this.organizations.requireFeature(organizationId, 'trusted_login');
    if (enabled && !(await this.repository.trusted(organizationId)).secret_hash) {
      throw AppError.invalid(
        'enabled',
        'Generate a secret before enabling trusted login.',
        'trusted_login_secret_missing',
      );
    }
    const row = await this.dataSource.transaction(async (manager) => {
      const before = await this.repository.trusted(organizationId);
      const saved = await this.repository.setTrustedEnabled(organizationId, enabled, manager);
      if (before.enabled !== saved.enabled) {
        await this.audit.record(manager, organizationId, {
          action: 'trusted_login.updated',
          target: { type: 'trusted_login', id: organizationId, label: 'Trusted login' },
          changes: { before: { enabled: before.enabled }, after: { enabled: saved.enabled } },
        });
      }
      return saved;
    });
    return this.toStatus(row);
  }

  /**
   * `POST /visitor-account-login/trusted`. In order: the site (404), the secret (401), the plan
   * and the switch (403), the subscription (402), the site's login settings (403), the visitor
   * (404); then the email is matched against the lookup columns.
   */
  async login(
    secret: string | undefined,
    input: { widget_key: string; visitor_uid?: string; visitor_id?: number; email: string },
  ) {
    const site = await this.sites.findActiveByWidgetKey(input.widget_key);
    if (!site) throw AppError.notFound();
    const organizationId = site.organizationId;
    const trusted = await this.repository.trusted(organizationId);
    if (!secret || !trusted.secret_hash || !sameBytes(sha256(secret), trusted.secret_hash)) {
      throw AppError.unauthenticated();
    }
    // Counted once the secret is right: wrong secrets cannot use up the owner's budget (the
    // widget key is public), and a leaked secret still cannot log visitors in at any rate.
    await rateLimited(
      this.limits,
      `trusted-login:${organizationId}`,
      this.config.env.TRUSTED_LOGIN_LIMIT_PER_MINUTE,
      60_000,
    );
    await this.organizations.requireFeature(organizationId, 'trusted_login');
    if (!trusted.enabled)
      throw AppError.forbidden('Trusted visitor login is disabled.', 'trusted_login_disabled');
    this.organizations.requireActiveSubscription(await this.organizations.get(organizationId));
    const scope = { organizationId, siteId: site.id };
    const lookup = await this.accountLogin.loginLookup(scope);
    const visitorId =
      input.visitor_id !== undefined
        ? await this.visitors.idOfSite(organizationId, site.id, String(input.visitor_id))
        : await this.visitors.idByUid(organizationId, site.id, input.visitor_uid ?? '');
    if (!visitorId) throw AppError.notFound();
    const visitor = { ...scope, allowedDomains: site.allowedDomains, visitorId };

    const email = input.email.trim();
    const replies = await this.accountLogin.replies(visitor);
    const accounts = await this.dataLookup.findAccounts(lookup, email);
    if (accounts.length !== 1) {
      return {
        success: false,
        reply_body: replies.trustedNoAccount,
        visitor_profile: await this.accountLogin.profile(
          visitor,
          await this.accountLogin.current(visitor, lookup),
        ),
      };
    }
    const login = await this.accountLogin.complete(visitor, lookup, accounts[0], email, 'trusted');
    return {
      success: true,
      reply_body: replies.loggedIn(accounts[0].name ?? email),
      visitor_profile: await this.accountLogin.profile(visitor, login),
    };
  }

  private toStatus(row: TrustedLoginRow) {
    return {
      enabled: row.enabled,
      secret_configured: row.secret_hash !== null,
      secret_prefix: row.secret_prefix,
      header: TRUSTED_LOGIN_HEADER,
      endpoint: `${this.config.publicUrl}/api/visitor-account-login/trusted`,
    };
  }
}
