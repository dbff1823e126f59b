import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { rateLimited } from '../../common/rate-limit/rate-limited';
import { AppConfig } from '../../config/app-config';
import type { OwnerAccount, SiteLookup } from '../data-lookup/data-lookup.service';
import { accountSource } from '../data-lookup/lookup-settings';
import { MailService } from '../mail/mail.service';
import { VisitorsService } from '../visitors/visitors.service';
import { AccountLoginRepository } from './account-login.repository';
import {
  CODE_LIFETIME_MINUTES,
  CODES_PER_ACCOUNT_HOUR,
  CODES_PER_VISITOR_HOUR,
  codeMatches,
  hashCode,
  MAX_WRONG_TRIES,
  newCode,
  newSalt,
  normalizeIdentifier,
  WRONG_CODES_PER_ACCOUNT_DAY,
} from './login-codes';
import type { LoginReplies } from './login-replies';

const HOUR_MS = 60 * 60 * 1000;

/** A checked code: the account it logs in to, or the reply that says why not. */
export type CodeCheck =
  | { code: { accountKey: string; identifier: string }; reply?: undefined }
  | { code?: undefined; reply: string };

/**
 * The one-time login codes of account login: issuing one (limits, decoys, the mail queue) and
 * checking what the visitor typed (wrong tries burn the code).
 */
@Injectable()
export class LoginCodeService {
  private readonly logger = new Logger('account-login');

  constructor(
    private readonly repository: AccountLoginRepository,
    private readonly dataSource: DataSource,
    private readonly mail: MailService,
    private readonly visitors: VisitorsService,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
  ) {}

  /**
   * A new code for the visitor (earlier ones stop working), mailed through the queue. Five an
   * hour per visitor (then 429). An identifier that names no account, or an account without an
   * email or past its own hourly limit, gets a decoy code that matches nothing and mails nothing,
   * so it counts and answers exactly like a real one.
   */
  async issue(
    visitor: VisitorPrincipal,
    lookup: SiteLookup,
    identifier: string,
    account: OwnerAccount | undefined,
  ): Promise<void> {
    // Per recipient (the identifier typed, normalized, so the answer is the same whether or not it
    // names an account) and per site: OTP_MAIL_LIMIT_PER_HOUR, and 50 times that for the site.
    const perHour = this.config.env.OTP_MAIL_LIMIT_PER_HOUR;
    await rateLimited(
      this.limits,
      `otp-mail:to:${visitor.siteId}:${normalizeIdentifier(identifier)}`,
      perHour,
      HOUR_MS,
    );
    await rateLimited(this.limits, `otp-mail:site:${visitor.siteId}`, perHour * 50, HOUR_MS);
    const code = newCode();
    const salt = newSalt();
    const source = accountSource(lookup.settings.account);
    const issued = await this.dataSource.transaction(async (manager) => {
      await this.repository.lockVisitorCodes(manager, visitor.visitorId);
      const recent = await this.repository.recentCodeTimes(
        manager,
        visitor.organizationId,
        visitor.visitorId,
      );
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
        throw new AppError('rate_limited', 'Too Many Attempts.', {
          reason: 'too_many_attempts',
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
      let mailTo = account?.email ?? null;
      if (account && mailTo) {
        const sent = await this.repository.recentAccountCodes(manager, visitor, account.key);
        const wrong = await this.repository.wrongTriesToday(manager, visitor, account.key);
        if (sent >= CODES_PER_ACCOUNT_HOUR || wrong >= WRONG_CODES_PER_ACCOUNT_DAY) {
          this.logger.warn({
            msg:
              sent >= CODES_PER_ACCOUNT_HOUR
                ? 'login codes for an account past the hourly limit'
                : 'login codes for an account past the daily wrong-code limit',
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
    await this.mail.send(visitor.organizationId, {
      template: {
        kind: 'login_code',
        name: account?.name ?? null,
        code,
        minutes: CODE_LIFETIME_MINUTES,
      },
      to: issued.to,
      toName: account?.name ?? null,
      siteId: visitor.siteId,
      language: (await this.visitors.get(visitor.organizationId, visitor.visitorId)).language,
    });
  }

  /** Checks `otp` against the visitor's current code, counting a wrong try. */
  check(
    visitor: VisitorPrincipal,
    lookup: SiteLookup,
    otp: string,
    replies: LoginReplies,
  ): Promise<CodeCheck> {
    return this.dataSource.transaction(async (manager) => {
      await this.repository.lockVisitorCodes(manager, visitor.visitorId);
      const code = await this.repository.lockCurrentCode(
        manager,
        visitor.organizationId,
        visitor.visitorId,
      );
      if (!code || code.expired || code.account_source !== accountSource(lookup.settings.account)) {
        return { reply: replies.noCode };
      }
      // An account past its wrong codes for the day logs in with none: the answer is a wrong code's.
      const blocked =
        code.account_key !== null &&
        (await this.repository.wrongTriesToday(manager, visitor, code.account_key)) >=
          WRONG_CODES_PER_ACCOUNT_DAY;
      if (
        code.account_key === null ||
        blocked ||
        !codeMatches(code.code_salt, code.code_hash, otp)
      ) {
        const tries = await this.repository.recordWrongTry(
          manager,
          visitor.organizationId,
          code.id,
          MAX_WRONG_TRIES,
        );
        return {
          reply:
            tries >= MAX_WRONG_TRIES ? replies.burned : replies.wrongCode(MAX_WRONG_TRIES - tries),
        };
      }
      await this.repository.markUsed(manager, visitor.organizationId, code.id);
      return { code: { accountKey: code.account_key, identifier: code.identifier } };
    });
  }
}
