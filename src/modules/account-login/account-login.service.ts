import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { AppError } from '../../common/errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { rateLimited } from '../../common/rate-limit/rate-limited';
import { AppConfig } from '../../config/app-config';
import { type LoginCodeMailJob, QueueName } from '../../queue/queue-names';
import {
  DataLookupService,
  type OwnerAccount,
  type SiteLookup,
} from '../data-lookup/data-lookup.service';
import { accountSource } from '../data-lookup/lookup-settings';
import { OrganizationsService } from '../organizations/organizations.service';
import { SitesService } from '../sites/sites.service';
import { withDefaults } from '../sites/widget-settings';
import { VisitorsService } from '../visitors/visitors.service';
import { type AccountLoginState, toVisitorProfile } from '../widget/visitor-profile';
import {
  type AccountLoginRow,
  AccountLoginRepository,
  type LoginMethod,
} from './account-login.repository';
import {
  CODE_LIFETIME_MINUTES,
  CODES_PER_ACCOUNT_HOUR,
  CODES_PER_VISITOR_HOUR,
  codeMatches,
  hashCode,
  MAX_WRONG_TRIES,
  newCode,
  newSalt,
} from './login-codes';
import { followUps, REPLIES } from './login-replies';

/** How long a login lasts; the widget asks the visitor to log in again after that. */
export const LOGIN_LIFETIME_SECONDS = 24 * 60 * 60;
const HOUR_MS = 60 * 60 * 1000;

/**
 * Visitors logging in to the site owner's account table: by identifier alone, by a mailed
 * one-time code, or trusted from the owner's backend. A login holds the account's key; every
 * record read later is limited to rows of that key.
 */
@Injectable()
export class AccountLoginService {
  private readonly logger = new Logger('account-login');

  constructor(
    private readonly repository: AccountLoginRepository,
    private readonly dataLookup: DataLookupService,
    private readonly organizations: OrganizationsService,
    private readonly sites: SitesService,
    private readonly visitors: VisitorsService,
    private readonly secrets: SecretBoxService,
    private readonly dataSource: DataSource,
    @InjectQueue(QueueName.LoginCodeMail) private readonly mailQueue: Queue<LoginCodeMailJob>,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
  ) {}

  /**
   * The visitor's login while it is valid: not expired, and made against the account table and
   * key column the site still uses (settings pointing elsewhere end every login).
   */
  async current(
    visitor: VisitorPrincipal,
    lookup?: SiteLookup,
  ): Promise<AccountLoginRow | undefined> {
    const login = await this.repository.login(visitor.organizationId, visitor.visitorId);
    if (!login || login.site_id !== visitor.siteId) return undefined;
    const site = lookup ?? (await this.dataLookup.find(visitor.organizationId, visitor.siteId));
    if (!site || login.account_source !== accountSource(site.settings.account)) return undefined;
    return login;
  }

  /** `visitor_profile.account_login` of the visitor. */
  async state(visitor: VisitorPrincipal): Promise<AccountLoginState | undefined> {
    const login = await this.current(visitor);
    return login && { identifier: login.identifier, verifiedAt: login.verified_at };
  }

  /** The visitor's `visitor_profile`. */
  async profile(visitor: VisitorPrincipal, login?: AccountLoginRow) {
    const [row, site] = await Promise.all([
      this.visitors.widgetVisitor(visitor.organizationId, visitor.visitorId),
      this.sites.get(visitor.organizationId, visitor.siteId),
    ]);
    const fields = withDefaults(site.widget_settings).pre_chat_form.fields;
    return toVisitorProfile(
      row,
      fields,
      login && { identifier: login.identifier, verifiedAt: login.verified_at },
    );
  }

  /**
   * The site's lookup for account login: the plan must include it (403 `feature_not_in_plan`),
   * and the site must have data lookup and visitor account login switched on (403 `forbidden`).
   */
  async loginLookup(visitor: { organizationId: string; siteId: string }): Promise<SiteLookup> {
    await this.organizations.requireFeature(visitor.organizationId, 'visitor_account_login');
    await this.organizations.requireFeature(visitor.organizationId, 'data_lookup');
    const lookup = await this.dataLookup.require(visitor.organizationId, visitor.siteId);
    if (!lookup.widget.visitor_account_login.enabled) {
      throw AppError.forbidden('Visitor account login is not enabled for this site.');
    }
    return lookup;
  }

  /** `POST /widget/account-login`. */
  async login(visitor: VisitorPrincipal, identifier: string) {
    const lookup = await this.loginLookup(visitor);
    const typed = identifier.trim();
    const accounts = await this.dataLookup.findAccounts(lookup, typed);
    // An identifier naming two accounts logs in to neither.
    const account = accounts.length === 1 ? accounts[0] : undefined;

    if (!lookup.settings.require_otp) {
      if (!account) {
        return this.answer(visitor, {
          success: false,
          otp_required: false,
          reply_body: REPLIES.noAccount,
        });
      }
      const login = await this.complete(visitor, lookup, account, typed, 'identifier');
      return this.loggedIn(visitor, lookup, login, account, { otp_required: false });
    }

    await this.issueCode(visitor, lookup, typed, account);
    // The same answer whether or not an account matched: the widget cannot probe for accounts.
    return this.answer(visitor, {
      success: true,
      otp_required: true,
      reply_body: REPLIES.codeSent,
    });
  }

  /** `POST /widget/account-login/verify-otp`. */
  async verify(visitor: VisitorPrincipal, otp: string) {
    const lookup = await this.loginLookup(visitor);
    const outcome = await this.dataSource.transaction(async (manager) => {
      await this.repository.lockVisitorCodes(manager, visitor.visitorId);
      const code = await this.repository.lockCurrentCode(
        manager,
        visitor.organizationId,
        visitor.visitorId,
      );
      if (!code || code.expired || code.account_source !== accountSource(lookup.settings.account)) {
        return { reply: REPLIES.noCode };
      }
      if (code.account_key === null || !codeMatches(code.code_salt, code.code_hash, otp)) {
        const tries = await this.repository.recordWrongTry(
          manager,
          visitor.organizationId,
          code.id,
          MAX_WRONG_TRIES,
        );
        return {
          reply:
            tries >= MAX_WRONG_TRIES ? REPLIES.burned : REPLIES.wrongCode(MAX_WRONG_TRIES - tries),
        };
      }
      await this.repository.markUsed(manager, visitor.organizationId, code.id);
      return { code: { accountKey: code.account_key, identifier: code.identifier } };
    });
    if (!outcome.code) {
      return this.answer(visitor, { success: false, reply_body: outcome.reply });
    }
    const account = (await this.dataLookup.account(lookup, outcome.code.accountKey)) ?? {
      key: outcome.code.accountKey,
      email: null,
      name: null,
    };
    const login = await this.complete(visitor, lookup, account, outcome.code.identifier, 'otp');
    return this.loggedIn(visitor, lookup, login, account, {});
  }

  /** `POST /widget/account-logout`: always allowed, so nobody stays stuck logged in. */
  async logout(visitor: VisitorPrincipal) {
    await this.dataSource.transaction(async (manager) => {
      await this.repository.deleteLogin(manager, visitor.organizationId, visitor.visitorId);
      await this.repository.burnCodes(manager, visitor.organizationId, visitor.visitorId);
    });
    return { success: true, visitor_profile: await this.profile(visitor) };
  }

  /**
   * Logs the visitor in to the account, and fills the visitor's name and email from it where
   * they are still unknown, so agents see who they talk to.
   */
  async complete(
    visitor: VisitorPrincipal,
    lookup: SiteLookup,
    account: OwnerAccount,
    identifier: string,
    method: LoginMethod,
  ): Promise<AccountLoginRow> {
    const current = await this.visitors.widgetVisitor(visitor.organizationId, visitor.visitorId);
    return this.dataSource.transaction(async (manager) => {
      const login = await this.repository.saveLogin(manager, visitor.organizationId, {
        visitor_id: visitor.visitorId,
        site_id: visitor.siteId,
        account_key: account.key,
        account_source: accountSource(lookup.settings.account),
        identifier,
        method,
        lifetimeSeconds: LOGIN_LIFETIME_SECONDS,
      });
      await this.repository.burnCodes(manager, visitor.organizationId, visitor.visitorId);
      const name = current.name ? undefined : (account.name ?? undefined);
      const email = current.email ? undefined : (account.email ?? undefined);
      if (name !== undefined || email !== undefined) {
        await this.visitors.openSession(manager, visitor, current.visitor_uid, { name, email });
      }
      return login;
    });
  }

  private async loggedIn(
    visitor: VisitorPrincipal,
    lookup: SiteLookup,
    login: AccountLoginRow,
    account: OwnerAccount,
    extra: { otp_required?: boolean },
  ) {
    return {
      success: true,
      ...extra,
      reply_body: REPLIES.loggedIn(account.name ?? login.identifier),
      follow_up_replies: followUps(lookup),
      visitor_profile: await this.profile(visitor, login),
    };
  }

  private async answer<T extends { success: boolean; reply_body: string }>(
    visitor: VisitorPrincipal,
    fields: T,
  ) {
    const login = await this.current(visitor);
    return {
      ...fields,
      follow_up_replies: [],
      visitor_profile: await this.profile(visitor, login),
    };
  }

  /**
   * A new code for the visitor (earlier ones stop working), mailed through the queue. Five an
   * hour per visitor (then 429). An identifier that names no account, or an account without an
   * email or past its own hourly limit, gets a decoy code that matches nothing and mails nothing,
   * so it counts and answers exactly like a real one.
   */
  private async issueCode(
    visitor: VisitorPrincipal,
    lookup: SiteLookup,
    identifier: string,
    account: OwnerAccount | undefined,
  ): Promise<void> {
    // Per recipient (the identifier typed, so the answer is the same whether or not it names an
    // account) and per site: OTP_MAIL_LIMIT_PER_HOUR, and 50 times that for the whole site.
    const perHour = this.config.env.OTP_MAIL_LIMIT_PER_HOUR;
    await rateLimited(
      this.limits,
      `otp-mail:to:${visitor.siteId}:${identifier.trim().toLowerCase()}`,
      perHour,
      HOUR_MS,
    );
    await rateLimited(this.limits, `otp-mail:site:${visitor.siteId}`, perHour * 50, HOUR_MS);
    const code = newCode();
    const salt = newSalt();
    const source = accountSource(lookup.settings.account);
    const issued = await this.dataSource.transaction(async (manager) => {
      await this.repository.lockVisitorCodes(manager, visitor.visitorId);
      const recent = await this.repository.recentCodeTimes(manager, visitor.visitorId);
      if (recent.length >= CODES_PER_VISITOR_HOUR) {
        const retryAfter = Math.max(
          1,
          Math.ceil(
            (new Date(recent[recent.length - CODES_PER_VISITOR_HOUR]).getTime() +
              HOUR_MS -
              Date.now()) /
              1000,
          ),
        );
        throw new AppError('rate_limited', 'Too Many Attempts.', undefined, {
          'Retry-After': String(retryAfter),
        });
      }
      let mailTo = account?.email ?? null;
      if (account && mailTo) {
        const sent = await this.repository.recentAccountCodes(manager, visitor.siteId, account.key);
        if (sent >= CODES_PER_ACCOUNT_HOUR) {
          this.logger.warn({
            msg: 'login codes for an account past the hourly limit',
            siteId: visitor.siteId,
          });
          mailTo = null;
        }
      }
      await this.repository.burnCodes(manager, visitor.organizationId, visitor.visitorId);
      const row = await this.repository.insertCode(manager, visitor.organizationId, {
        siteId: visitor.siteId,
        visitor_id: visitor.visitorId,
        account_key: mailTo ? (account?.key ?? null) : null,
        account_source: source,
        identifier,
        code_salt: salt,
        code_hash: hashCode(salt, code),
        lifetimeSeconds: CODE_LIFETIME_MINUTES * 60,
      });
      return mailTo ? { id: row.id, to: mailTo } : undefined;
    });
    if (!issued) return;
    await this.mailQueue.add(
      'login-code',
      {
        codeId: issued.id,
        to: issued.to,
        name: account?.name ?? null,
        sealedCode: this.secrets.seal(code),
      },
      {
        jobId: `login-code-${issued.id}`,
        attempts: 3,
        backoff: { type: 'exponential', delay: 2000 },
        removeOnComplete: true,
        removeOnFail: 1000,
      },
    );
  }
}
