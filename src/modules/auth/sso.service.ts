import { Injectable, Logger } from '@nestjs/common';
import type { Client, Issuer } from 'openid-client';
import { lazyModule } from '../../common/lazy-module';
import { DataSource } from 'typeorm';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { randomToken, sameBytes, sha256 } from '../../common/crypto/secrets';
import { AppError, type ErrorCode } from '../../common/errors/app-error';
import { parseAllowedTargets, type TargetPolicy } from '../../common/net/target-policy';
import { AppConfig } from '../../config/app-config';
import { AgentsService } from '../agents/agents.service';
import { AuditLogService } from '../audit/audit-log.service';
import { AuthService } from './auth.service';
import { checkIssuerUrl, guardedHttpOptions } from './sso-http';
import { SsoRepository, type SsoSettingsRow } from './sso.repository';

/** A membership as the agents feature answers it. */
type Member = Awaited<ReturnType<AgentsService['join']>>;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
const openId = lazyModule(() => require('openid-client') as typeof import('openid-client'));

/** How long a started sign-in may take at the provider. */
export const SSO_ATTEMPT_SECONDS = 600;
const HTTP_TIMEOUT_MS = 5000;
export const MASK = '********';

export interface SsoSettingsInput {
  issuer: string;
  client_id: string;
  client_secret?: string;
  allowed_domains: string[];
  default_role: 'admin' | 'agent';
  enforce: boolean;
}

/** How long an organization's discovered issuer is kept (dropped at once when SSO is saved). */
export const SSO_DISCOVERY_TTL_MS = 5 * 60 * 1000;

/**
 * Why a single sign-on in the browser failed: the dashboard's login page says it in words
 * (`/login?sso_error=<reason>`, the catalog's `auth.sso.error.<reason>`).
 */
export type SsoFailureReason =
  | 'expired'
  | 'refused'
  | 'unverified'
  | 'no_email'
  | 'not_allowed'
  | 'unavailable'
  | 'not_configured'
  | 'failed';

/** A failed sign-in at the provider or on its way back, with the reason the browser is told. */
export class SsoFailure extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    /** What the login page is told (`sso_error`); not an `error_reason` of the API. */
    readonly ssoReason: SsoFailureReason,
  ) {
    super(code, message);
  }
}

/** The reason of any error of a browser's sign-in (an unexpected one is `failed`). */
export function ssoFailureReason(error: unknown): SsoFailureReason {
  if (error instanceof SsoFailure) return error.ssoReason;
  if (error instanceof AppError && error.code === 'not_found') return 'not_configured';
  if (error instanceof AppError && error.code === 'service_unavailable') return 'unavailable';
  return 'failed';
}

const UNKNOWN_ATTEMPT = 'This single sign-on attempt is unknown, expired or already used.';
const UNVERIFIED = "Single sign-on failed: the identity provider's answer could not be verified.";
const UNREACHABLE = 'Single sign-on failed: the identity provider could not be reached.';
const failed = (message: string, reason: SsoFailureReason = 'expired') =>
  new SsoFailure('unauthenticated', message, reason);

/**
 * Single sign-on with OpenID Connect (DESIGN section 12): one provider per organization, the
 * authorization code flow with PKCE, `state` and `nonce` through openid-client (certified); every
 * request to the provider goes through the address policy (SSO_ALLOWED_HOSTS).
 */
@Injectable()
export class SsoService {
  private readonly logger = new Logger('sso');
  private readonly policy: TargetPolicy;
  /** Each organization's discovered issuer, by the issuer URL it was read from. */
  private readonly issuers = new Map<
    string,
    { url: string; issuer: Issuer<Client>; until: number }
  >();

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: SsoRepository,
    private readonly secrets: SecretBoxService,
    private readonly agents: AgentsService,
    private readonly auth: AuthService,
    private readonly audit: AuditLogService,
    private readonly config: AppConfig,
  ) {
    this.policy = { allowed: parseAllowedTargets(config.env.SSO_ALLOWED_HOSTS), ownDatabase: [] };
  }

  get redirectUri(): string {
    return `${this.config.publicUrl}/api/agent/auth/sso/callback`;
  }

  private owner(agent: AgentPrincipal): void {
    if (agent.role !== 'owner')
      throw AppError.forbidden('Only an owner can manage single sign-on.', 'owner_only');
  }

  async get(agent: AgentPrincipal) {
    this.owner(agent);
    const row = await this.repository.find(agent.organizationId);
    return row
      ? view(row)
      : {
          configured: false,
          issuer: null,
          client_id: null,
          client_secret: null,
          allowed_domains: [],
          default_role: 'agent' as const,
          enforce: false,
          updated_at: null,
        };
  }

  async update(agent: AgentPrincipal, input: SsoSettingsInput) {
    this.owner(agent);
    const issuer = input.issuer.trim().replace(/\/+$/, '');
    await this.discover(issuer, true);
    const domains = [...new Set(input.allowed_domains.map((d) => d.trim().toLowerCase()))];
    return this.dataSource.transaction(async (manager) => {
      const before = await this.repository.find(agent.organizationId, manager, true);
      if (!before && input.client_secret === undefined)
        throw AppError.invalid('client_secret', 'The client secret field is required.', 'required');
      const sealed =
        input.client_secret === undefined
          ? before!.client_secret_sealed
          : this.secrets.seal(input.client_secret);
      const next = {
        issuer,
        client_id: input.client_id.trim(),
        client_secret_sealed: sealed,
        allowed_domains: domains,
        default_role: input.default_role,
        enforce: input.enforce,
      };
      await this.repository.upsert(manager, agent.organizationId, next);
      this.issuers.delete(agent.organizationId);
      const after = await this.repository.find(agent.organizationId, manager);
      const secretChanged = input.client_secret !== undefined;
      await this.audit.record(manager, agent.organizationId, {
        action: 'sso.updated',
        target: { type: 'sso', label: issuer },
        changes: {
          before: before ? auditView(before, false) : undefined,
          after: auditView(after!, secretChanged),
        },
      });
      return view(after!);
    });
  }

  /** The provider's authorization address for the organization, and the browser's binding. */
  async start(organizationId: string): Promise<{ url: string; browser: string }> {
    const settings = /^\d{1,18}$/.test(organizationId)
      ? await this.repository.find(organizationId)
      : undefined;
    if (!settings) throw AppError.notFound();
    const client = await this.client(settings);
    const state = openId().generators.state();
    const nonce = openId().generators.nonce();
    const verifier = openId().generators.codeVerifier();
    const browser = randomToken(32);
    await this.repository.insertAttempt(
      organizationId,
      {
        stateHash: sha256(state),
        browserHash: sha256(browser),
        nonce,
        verifierSealed: this.secrets.seal(verifier),
      },
      SSO_ATTEMPT_SECONDS,
    );
    const url = client.authorizationUrl({
      scope: 'openid email profile',
      redirect_uri: this.redirectUri,
      response_type: 'code',
      state,
      nonce,
      code_challenge: openId().generators.codeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    return { url, browser };
  }

  /**
   * The provider's answer: the attempt of its `state` (used once, from the browser that started
   * it), the code exchanged with the PKCE verifier, the ID token verified (signature, issuer,
   * audience, nonce, expiry); then the member of the address logs in, created on first login
   * when its domain is allowed.
   */
  async callback(
    params: Record<string, string>,
    browser: string | undefined,
  ): Promise<{ token: string; user: Member }> {
    const state = params.state;
    if (!state) throw failed(UNKNOWN_ATTEMPT);
    const attempt = await this.repository.takeAttempt(sha256(state));
    if (!attempt || !browser || !sameBytes(sha256(browser), attempt.browser_hash))
      throw failed(UNKNOWN_ATTEMPT);
    const settings = await this.repository.find(attempt.organization_id);
    if (!settings) throw failed(UNKNOWN_ATTEMPT);
    if (params.error) {
      throw failed(
        `The identity provider refused the sign-in (${params.error.slice(0, 100)}).`,
        'refused',
      );
    }
    const client = await this.client(settings);
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.callback(this.redirectUri, params, {
        state,
        nonce: attempt.nonce,
        code_verifier: this.secrets.open(attempt.verifier_sealed),
        response_type: 'code',
      });
      claims = tokens.claims();
      // Providers that keep the address out of the ID token give it at userinfo (same `sub`).
      if (typeof claims.email !== 'string' && tokens.access_token)
        claims = { ...(await client.userinfo(tokens)), ...claims };
    } catch (error) {
      // The provider's or the client's verdict on the answer, or no answer at all (down).
      const refused =
        error instanceof openId().errors.OPError || error instanceof openId().errors.RPError;
      this.logger.warn({
        msg: refused ? 'single sign-on answer refused' : 'single sign-on provider unreachable',
        organization_id: settings.organization_id,
        reason: error instanceof Error ? error.message : String(error),
      });
      if (!refused) throw new SsoFailure('service_unavailable', UNREACHABLE, 'unavailable');
      throw failed(UNVERIFIED, 'unverified');
    }
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email || claims.email_verified === false)
      throw new SsoFailure(
        'forbidden',
        'Single sign-on failed: the identity provider gave no confirmed email address.',
        'no_email',
      );
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const name =
      typeof claims.name === 'string' && claims.name.trim() !== ''
        ? claims.name.trim().slice(0, 255)
        : email.slice(0, email.lastIndexOf('@'));
    const organizationId = settings.organization_id;
    return this.dataSource.transaction(async (manager) => {
      const login = await this.agents.findLogin(email);
      let user = login ? await this.agents.findMembership(login.id, organizationId) : undefined;
      if (!user) {
        if (!settings.allowed_domains.includes(domain))
          throw new SsoFailure(
            'forbidden',
            'Single sign-on: this email address is not a member of the organization, and its domain is not allowed to join.',
            'not_allowed',
          );
        user = login
          ? await this.joinAudited(manager, organizationId, login, name, settings.default_role)
          : await this.agents.create(
              manager,
              organizationId,
              { name, email, password: randomToken(32), role: settings.default_role },
              { origin: 'sso', newLogin: true, verified: true },
            );
      }
      const member = user;
      const token = await this.auth.startSession(manager, member.id, { viaSso: true });
      await this.audit.record(manager, organizationId, {
        action: 'auth.login',
        target: { type: 'member', id: member.id, label: member.name },
        changes: { after: { method: 'sso' } },
        fallbackActor: { type: 'user', id: member.id, name: member.name },
      });
      return { token, user: member };
    });
  }

  private async joinAudited(
    manager: Parameters<AgentsService['join']>[0],
    organizationId: string,
    login: Parameters<AgentsService['join']>[2],
    name: string,
    role: 'admin' | 'agent',
  ): Promise<Member> {
    const user = await this.agents.join(manager, organizationId, login, { name, role });
    await this.audit.record(manager, organizationId, {
      action: 'member.created',
      target: { type: 'member', id: user.id, label: user.name },
      changes: { after: { name: user.name, email: user.email, role: user.role, via: 'sso' } },
      fallbackActor: { type: 'user', id: user.id, name: user.name },
    });
    return user;
  }

  private async client(settings: SsoSettingsRow): Promise<Client> {
    const issuer = await this.issuerOf(settings);
    const client = new issuer.Client({
      client_id: settings.client_id,
      client_secret: this.secrets.open(settings.client_secret_sealed),
      redirect_uris: [this.redirectUri],
      response_types: ['code'],
    });
    client[openId().custom.http_options] = guardedHttpOptions(this.policy, HTTP_TIMEOUT_MS);
    return client;
  }

  /**
   * The organization's issuer, discovered at most once per SSO_DISCOVERY_TTL_MS (and again at
   * once when its settings name another issuer: another instance may have saved them).
   */
  private async issuerOf(settings: SsoSettingsRow): Promise<Issuer<Client>> {
    const cached = this.issuers.get(settings.organization_id);
    if (cached && cached.url === settings.issuer && cached.until > Date.now()) return cached.issuer;
    const issuer = await this.discover(settings.issuer, false);
    this.issuers.set(settings.organization_id, {
      url: settings.issuer,
      issuer,
      until: Date.now() + SSO_DISCOVERY_TTL_MS,
    });
    return issuer;
  }

  /**
   * The issuer's discovery document, read under the address policy. Saving settings: a 422 on
   * `issuer`; signing in: a 503.
   */
  private async discover(issuerUrl: string, saving: boolean): Promise<Issuer<Client>> {
    const invalid = (message: string) =>
      saving
        ? AppError.invalid('issuer', message, 'sso_issuer_invalid')
        : new AppError('service_unavailable', message, { reason: 'sso_issuer_unreachable' });
    let url: URL;
    try {
      url = new URL(issuerUrl);
    } catch {
      throw invalid('The issuer must be an https URL.');
    }
    if (url.username || url.password || url.search || url.hash)
      throw invalid('The issuer must be an https URL without credentials, query or fragment.');
    const reason = await checkIssuerUrl(this.policy, url);
    if (reason) {
      this.logger.warn({
        msg: 'SSO issuer refused by the address policy',
        issuer: issuerUrl,
        reason,
      });
      throw invalid(
        reason === 'not found'
          ? 'The issuer host was not found.'
          : 'The issuer must be a public https address (loopback and private addresses are refused unless the operator allows the host).',
      );
    }
    const IssuerClass = openId().Issuer as typeof Issuer & Record<symbol, unknown>;
    IssuerClass[openId().custom.http_options] = guardedHttpOptions(this.policy, HTTP_TIMEOUT_MS);
    try {
      const issuer = await openId().Issuer.discover(issuerUrl);
      if (String(issuer.metadata.issuer).replace(/\/+$/, '') !== issuerUrl)
        throw new Error(`the document names another issuer (${String(issuer.metadata.issuer)})`);
      issuer[openId().custom.http_options] = guardedHttpOptions(this.policy, HTTP_TIMEOUT_MS);
      return issuer;
    } catch (error) {
      this.logger.warn({
        msg: 'SSO discovery failed',
        issuer: issuerUrl,
        reason: error instanceof Error ? error.message : String(error),
      });
      throw invalid("The issuer's OpenID Connect discovery document could not be read.");
    }
  }
}

function view(row: SsoSettingsRow) {
  return {
    configured: true,
    issuer: row.issuer,
    client_id: row.client_id,
    client_secret: MASK,
    allowed_domains: row.allowed_domains,
    default_role: row.default_role,
    enforce: row.enforce,
    updated_at: row.updated_at.toISOString(),
  };
}

function auditView(row: SsoSettingsRow, secretChanged: boolean) {
  return {
    issuer: row.issuer,
    client_id: row.client_id,
    client_secret: secretChanged ? '[changed]' : '[masked]',
    allowed_domains: row.allowed_domains,
    default_role: row.default_role,
    enforce: row.enforce,
  };
}
