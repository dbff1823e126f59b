import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { VisitorPrincipal, WidgetPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { AgentsService } from '../agents/agents.service';
import { ConversationMailService } from '../conversation-mail/conversation-mail.service';
import { AccountLoginService } from '../account-login/account-login.service';
import { WidgetSessionService } from '../auth/widget-session.service';
import { VisitorChatService } from '../conversations/visitor-chat.service';
import { RealtimeService } from '../realtime/realtime.service';
import { appAllowed } from '../sites/allowed-origins';
import { SitesService } from '../sites/sites.service';
import { toWidgetConfig } from '../sites/widget-config.dto';
import { withDefaults } from '../sites/widget-settings';
import { VisitorsService } from '../visitors/visitors.service';
import { errorField, missingFields, toVisitorProfile } from '../visitors/visitor-profile';
import type { WidgetInitDto, WidgetProfileDto } from './widget.dto';

/** Widget sessions and the pre-chat profile; the chat itself is VisitorChatService's. */
@Injectable()
export class WidgetService {
  constructor(
    private readonly sites: SitesService,
    private readonly visitors: VisitorsService,
    private readonly chat: VisitorChatService,
    private readonly sessions: WidgetSessionService,
    private readonly accountLogin: AccountLoginService,
    private readonly agents: AgentsService,
    private readonly dataSource: DataSource,
    private readonly realtime: RealtimeService,
    private readonly conversationMail: ConversationMailService,
  ) {}

  /**
   * Opens or resumes the visitor's session: the visitor (made or refreshed with what the widget
   * tells), its open conversation (made if none, unlisted until the first message) and a session
   * token, in one transaction. Mobile SDKs must name an app the site allows. `country` comes from
   * the proxy's header (COUNTRY_HEADER), when one is configured.
   */
  async init(
    widget: WidgetPrincipal,
    input: WidgetInitDto,
    country?: string,
    sessionToken?: string,
    userAgent?: string,
  ) {
    if (input.platform !== undefined) {
      if (!input.app_id) {
        throw AppError.invalid(
          'app_id',
          'The app_id field is required when platform is present.',
          'required',
        );
      }
      if (!appAllowed(widget.allowedDomains, input.app_id)) {
        throw AppError.forbidden(
          "This app is not in the site's allowed domains.",
          'app_not_allowed',
        );
      }
    }
    const site = await this.sites.get(widget.organizationId, widget.siteId);
    // The widget resumes by its signed session token, never by a bare UID from anywhere.
    const session = sessionToken ? this.sessions.verify(sessionToken) : undefined;
    const sessionVisitorId = session?.siteId === widget.siteId ? session.visitorId : undefined;
    const { visitor, conversationId } = await this.dataSource.transaction(async (manager) => {
      const visitor = await this.visitors.openSession(
        manager,
        widget,
        input.visitor_uid,
        {
          name: input.visitor_name,
          email: input.visitor_email,
          phone: input.visitor_phone ?? input.visitor_mobile ?? input.mobile,
          language: input.locale,
          country,
          pageUrl: input.url,
          pageTitle: input.page_title,
          platform: input.platform,
          appId: input.app_id,
          appVersion: input.app_version,
          appBuild: input.app_build,
        },
        sessionVisitorId,
      );
      await this.visitors.recordContext(manager, widget.organizationId, visitor.id, {
        pageUrl: input.url,
        pageTitle: input.page_title,
        referrer: input.referrer || undefined,
        userAgent: userAgent?.slice(0, 1000),
        timezone: input.timezone,
      });
      const conversationId = await this.chat.ensureOpen(
        manager,
        { ...widget, visitorId: visitor.id },
        input.locale ?? null,
      );
      return { visitor, conversationId };
    });
    return {
      visitor_uid: visitor.visitorUid,
      visitor_id: Number(visitor.id),
      session_token: this.sessions.issue({
        visitorId: visitor.id,
        siteId: widget.siteId,
        organizationId: widget.organizationId,
      }),
      conversation_id: Number(conversationId),
      widget_config: toWidgetConfig(site, await this.agents.anyOnline(widget.organizationId)),
      visitor_profile: toVisitorProfile(
        visitor,
        withDefaults(site.widgetSettings).pre_chat_form.fields,
        await this.accountLogin.state({ ...widget, visitorId: visitor.id }),
      ),
      unread_count: await this.chat.unread({ ...widget, visitorId: visitor.id }),
      consented_at: visitor.consentedAt ? new Date(visitor.consentedAt).toISOString() : null,
    };
  }

  /** The visitor agreed to the site's consent text: recorded once, with its time. */
  async consent(visitor: VisitorPrincipal): Promise<{ consented_at: string }> {
    const at = await this.visitors.recordConsent(visitor.organizationId, visitor.visitorId);
    return { consented_at: new Date(at).toISOString() };
  }

  /**
   * Ends the visitor's session on the server (`SupportChat('shutdown')`, a shared computer): the
   * account login and its codes end, the visitor's tokens and UID stop working, and its sockets
   * close on every instance. The next page load starts a new visitor.
   */
  async endSession(visitor: VisitorPrincipal): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.accountLogin.endLogin(manager, visitor);
      await this.visitors.endSession(manager, visitor.organizationId, visitor.visitorId);
    });
    this.realtime.disconnectVisitor(visitor.visitorId);
  }

  /**
   * The pre-chat form: built-in fields on the visitor, custom ones (only those the form defines;
   * others are ignored) in its custom fields. A required field left empty is a 422 naming it.
   */
  async saveProfile(visitor: VisitorPrincipal, input: WidgetProfileDto) {
    const site = await this.sites.get(visitor.organizationId, visitor.siteId);
    const fields = withDefaults(site.widgetSettings).pre_chat_form.fields;
    const customFields: Record<string, string> = {};
    const errors: Record<string, string[]> = {};
    for (const field of fields.filter((f) => !f.builtin)) {
      const value = input.custom_fields?.[field.key];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string' || value.length > 1000) {
        errors[errorField(field)] = [
          `The ${field.label} field must be a string of at most 1000 characters.`,
        ];
      } else customFields[field.key] = value;
    }
    if (Object.keys(errors).length > 0) throw AppError.validation(errors, 'pre_chat_field_invalid');

    const current = await this.visitors.widgetVisitor(visitor.organizationId, visitor.visitorId);
    const merged = {
      ...current,
      name: input.name ?? current.name,
      email: input.email ?? current.email,
      phone: input.phone ?? current.phone,
      customFields: { ...current.customFields, ...customFields },
    };
    const missing = missingFields(merged, fields);
    if (missing.length > 0) {
      throw AppError.validation(
        Object.fromEntries(
          missing.map((field) => [errorField(field), [`The ${field.label} field is required.`]]),
        ),
        'required',
      );
    }
    const saved = await this.visitors.saveProfile(visitor.organizationId, visitor.visitorId, {
      name: input.name,
      email: input.email,
      phone: input.phone,
      customFields,
    });
    return {
      visitor_profile: toVisitorProfile(saved, fields, await this.accountLogin.state(visitor)),
    };
  }

  /**
   * "Get notified by email": the address the visitor wants answers at (conversation mails go
   * there, and on again if the visitor had turned them off). The pre-chat form is not touched.
   */
  async saveEmail(visitor: VisitorPrincipal, email: string) {
    const site = await this.sites.get(visitor.organizationId, visitor.siteId);
    const saved = await this.visitors.saveEmail(visitor.organizationId, visitor.visitorId, email);
    await this.conversationMail.resubscribe(visitor.organizationId, visitor.visitorId);
    return {
      visitor_profile: toVisitorProfile(
        saved,
        withDefaults(site.widgetSettings).pre_chat_form.fields,
        await this.accountLogin.state(visitor),
      ),
    };
  }
}
