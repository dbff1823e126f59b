import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
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
import { type AccountLoginState, toVisitorProfile } from '../visitors/visitor-profile';
import {
  type AccountLoginRow,
  AccountLoginRepository,
  type LoginMethod,
} from './account-login.repository';
import { LoginCodeService } from './login-code.service';
import { followUps, loginReplies, type LoginReplies } from './login-replies';

/** How long a login lasts; the widget asks the visitor to log in again after that. */
export const LOGIN_LIFETIME_SECONDS = 24 * 60 * 60;

/**
 * Visitors logging in to the site owner's account table: by identifier alone, by a mailed
 * one-time code, or trusted from the owner's backend. A login holds the account's key; every
 * record read later is limited to rows of that key.
 */
@Injectable()
export class AccountLoginService {
  constructor(
    private readonly repository: AccountLoginRepository,
    private readonly dataLookup: DataLookupService,
    private readonly organizations: OrganizationsService,
    private readonly sites: SitesService,
    private readonly visitors: VisitorsService,
    private readonly codes: LoginCodeService,
    private readonly dataSource: DataSource,
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

  /**
   * The account key of the visitor's valid login (`current`), undefined without one: all the
   * records feature reads of a login (issue 32, point 7).
   */
  async accountKey(visitor: VisitorPrincipal, lookup?: SiteLookup): Promise<string | undefined> {
    return (await this.current(visitor, lookup))?.account_key;
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
    const fields = withDefaults(site.widgetSettings).pre_chat_form.fields;
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
      throw AppError.forbidden(
        'Visitor account login is not enabled for this site.',
        'account_login_disabled',
      );
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

    const replies = await this.replies(visitor);
    if (!lookup.settings.require_otp) {
      if (!account) {
        return this.answer(visitor, {
          success: false,
          otp_required: false,
          reply_body: replies.noAccount,
        });
      }
      const login = await this.complete(visitor, lookup, account, typed, 'identifier');
      return this.loggedIn(visitor, lookup, login, account, replies, { otp_required: false });
    }

    await this.codes.issue(visitor, lookup, typed, account);
    // The same answer whether or not an account matched: the widget cannot probe for accounts.
    return this.answer(visitor, {
      success: true,
      otp_required: true,
      reply_body: replies.codeSent,
    });
  }

  /** `POST /widget/account-login/verify-otp`. */
  async verify(visitor: VisitorPrincipal, otp: string) {
    const lookup = await this.loginLookup(visitor);
    const replies = await this.replies(visitor);
    const outcome = await this.codes.check(visitor, lookup, otp, replies);
    if (!outcome.code) {
      return this.answer(visitor, { success: false, reply_body: outcome.reply });
    }
    const account = (await this.dataLookup.account(lookup, outcome.code.accountKey)) ?? {
      key: outcome.code.accountKey,
      email: null,
      name: null,
    };
    const login = await this.complete(visitor, lookup, account, outcome.code.identifier, 'otp');
    return this.loggedIn(visitor, lookup, login, account, replies, {});
  }

  /** `POST /widget/account-logout`: always allowed, so nobody stays stuck logged in. */
  async logout(visitor: VisitorPrincipal) {
    await this.dataSource.transaction((manager) => this.endLogin(manager, visitor));
    return { success: true, visitor_profile: await this.profile(visitor) };
  }

  /** Logs the visitor out of the account and burns its codes, in the caller's transaction. */
  async endLogin(manager: EntityManager, visitor: VisitorPrincipal): Promise<void> {
    await this.repository.deleteLogin(manager, visitor.organizationId, visitor.visitorId);
    await this.repository.burnCodes(manager, visitor.organizationId, visitor.visitorId);
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
        await this.visitors.openSession(manager, visitor, current.visitorUid, { name, email });
      }
      return login;
    });
  }

  private async loggedIn(
    visitor: VisitorPrincipal,
    lookup: SiteLookup,
    login: AccountLoginRow,
    account: OwnerAccount,
    replies: LoginReplies,
    extra: { otp_required?: boolean },
  ) {
    return {
      success: true,
      ...extra,
      reply_body: replies.loggedIn(account.name ?? login.identifier),
      follow_up_replies: followUps(lookup),
      visitor_profile: await this.profile(visitor, login),
    };
  }

  /** The bot's login replies in the visitor's language (English when it is not one of the six). */
  async replies(visitor: { organizationId: string; visitorId: string }): Promise<LoginReplies> {
    return loginReplies(
      (await this.visitors.get(visitor.organizationId, visitor.visitorId)).language,
    );
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
}
