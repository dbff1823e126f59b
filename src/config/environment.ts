import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  getMetadataStorage,
} from 'class-validator';
import {
  ALLOWED_HOSTS,
  KEY,
  KEY_LIST,
  emptyToUndefined,
  toBoolean,
  toInteger,
} from './environment-values';

export const PLANS = ['free', 'pro', 'business'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Every variable the service reads, with its default. `.env.example` documents the same list;
 * `loadEnvironment` refuses to start on a bad value and names the variable.
 */
export class Environment {
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  @IsString()
  DATA_DIR = './.data';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// connection URL' })
  DATABASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  PUBLIC_URL?: string;

  @Transform(toInteger)
  @IsInt()
  @Min(1)
  RATE_LIMIT_PER_MINUTE = 120;

  @Transform(toBoolean)
  @IsBoolean()
  SIGNUP_ENABLED = true;

  @IsIn(PLANS)
  DEFAULT_PLAN: (typeof PLANS)[number] = 'business';

  @Transform(toInteger)
  @IsInt()
  @Min(0)
  SUBSCRIPTION_GRACE_DAYS = 7;

  @Transform(toInteger)
  @IsInt()
  @Min(1)
  MISSED_CHAT_SECONDS = 300;

  /** Days the audit log keeps its rows; the retention job deletes older ones. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  AUDIT_RETENTION_DAYS = 365;

  /**
   * Days incoming raw mail (processed or not) and outgoing mail-log rows are kept; the retention
   * job deletes older ones. A refused incoming mail's raw body is dropped at once.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  MAIL_RETENTION_DAYS = 30;

  /** How often the retention job (audit log, sites' `retention_days`, mail) runs: daily by default. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  RETENTION_EVERY_SECONDS = 86400;

  @Transform(toBoolean)
  @IsBoolean()
  WEBHOOK_ALLOW_INSECURE = false;

  @Transform(toInteger)
  @IsInt()
  @Min(100)
  WEBHOOK_TIMEOUT_MS = 10000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\d+(\s*,\s*\d+)*$/, {
    message: 'must be comma-separated milliseconds, e.g. 0,5000,300000',
  })
  WEBHOOK_RETRY_SCHEDULE_MS?: string;

  /**
   * 32 bytes (64 hex or base64) sealing stored secrets and deriving the widget session key;
   * required in production; unset elsewhere: a key generated into DATA_DIR on first start.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(KEY, { message: 'must be 32 bytes as 64 hex characters or base64' })
  SECRETS_KEY?: string;

  /** Keys being rotated away from (comma-separated): values sealed under them still open. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(KEY_LIST, { message: 'must be comma-separated keys of 32 bytes (hex or base64)' })
  SECRETS_KEY_PREVIOUS?: string;

  /** `production` requires SECRETS_KEY and keeps login codes out of the log. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  /**
   * Owner-database targets data lookup may reach although loopback, private or the service's own
   * database: comma-separated `host`, `host:port` or CIDR entries (the own database needs a
   * `host:port` entry).
   */
  @Matches(ALLOWED_HOSTS, { message: 'must be comma-separated host, host:port or CIDR entries' })
  DATA_LOOKUP_ALLOWED_HOSTS = '';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsEmail({ require_tld: false })
  MAIL_FROM = 'no-reply@localhost';

  /**
   * SMTP connections each instance keeps open to SMTP_URL (a pool; each sends up to 100 mails
   * before it is renewed). More connections send a burst faster where the relay allows them.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(64)
  SMTP_POOL_SIZE = 8;

  /**
   * The domain of reply addresses (`reply+<token>@...`) and forwarding addresses; unset:
   * PUBLIC_URL's host. Its MX (or a forwarding MTA) must lead to one of the inbound doors.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/, {
    message: 'must be a domain name such as mail.example.com',
  })
  MAIL_REPLY_DOMAIN?: string;

  /** Attempts at sending one mail before it is marked failed (the first included). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(30)
  MAIL_SEND_ATTEMPTS = 10;

  /** Delay before the second attempt at a mail; each later one waits twice as long. */
  @Transform(toInteger)
  @IsInt()
  @Min(10)
  MAIL_RETRY_DELAY_MS = 5000;

  /**
   * How long an agent's or bot's message may go unseen by the visitor's widget before it is
   * mailed to the visitor (replies within that window make one mail).
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  CONVERSATION_EMAIL_DELAY_SECONDS = 120;

  /**
   * The bearer token of `POST /api/inbound/email` (raw RFC 822 mail from a forwarding MTA or a
   * mail provider's hook). Unset: that door is closed (404).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\S{16,}$/, { message: 'must be at least 16 characters without spaces' })
  INBOUND_EMAIL_TOKEN?: string;

  /** Port of the built-in SMTP listener for incoming mail; unset: no listener. */
  @Transform(({ value }: { value: unknown }) => toInteger({ value: emptyToUndefined({ value }) }))
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  INBOUND_SMTP_PORT?: number;

  @IsString()
  INBOUND_SMTP_HOST = '0.0.0.0';

  /** Largest incoming mail, on every door (SMTP answers 552, HTTP 413). */
  @Transform(toInteger)
  @IsInt()
  @Min(1024)
  INBOUND_MAIL_MAX_BYTES = 25 * 1024 * 1024;

  /**
   * Ticket acknowledgements one email inbox, and one organization, may send per hour; past them
   * the ticket is still opened but nothing is mailed (forged senders must not turn the inbox
   * into a mailer to strangers).
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  MAIL_ACKS_PER_HOUR_PER_INBOX = 50;

  @Transform(toInteger)
  @IsInt()
  @Min(0)
  MAIL_ACKS_PER_HOUR_PER_ORG = 200;

  /**
   * New addresses one organization may mail per hour (its members and the addresses it mailed
   * before do not count; a mail received from an address does not make it known, as its sender can
   * be forged); past it a mail waits, and the mail log says why. Login codes, password resets,
   * address checks and acknowledgements (capped on their own) never wait.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  MAIL_NEW_RECIPIENTS_PER_HOUR_PER_ORG = 200;

  /**
   * Mails and refused recipients one client address may hand the SMTP listener per minute (then
   * 421 / 451).
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  INBOUND_SMTP_RATE_PER_MINUTE = 60;

  /**
   * IMAP servers an inbox's mailbox may be on although loopback, private or the service's own
   * database server: comma-separated `host`, `host:port` or CIDR entries (as
   * DATA_LOOKUP_ALLOWED_HOSTS). Such a server may also be reached without TLS.
   */
  @Matches(ALLOWED_HOSTS, { message: 'must be comma-separated host, host:port or CIDR entries' })
  IMAP_ALLOWED_HOSTS = '';

  /**
   * OpenID Connect issuers (and their endpoints) single sign-on may reach although loopback or
   * private: comma-separated `host`, `host:port` or CIDR entries (as DATA_LOOKUP_ALLOWED_HOSTS).
   * Such an issuer may also be reached over plain `http`.
   */
  @Matches(ALLOWED_HOSTS, { message: 'must be comma-separated host, host:port or CIDR entries' })
  SSO_ALLOWED_HOSTS = '';

  /**
   * Websites a content import may read although loopback, private or the service's own database
   * server: comma-separated `host`, `host:port` or CIDR entries (as DATA_LOOKUP_ALLOWED_HOSTS).
   */
  @Matches(ALLOWED_HOSTS, { message: 'must be comma-separated host, host:port or CIDR entries' })
  CRAWL_ALLOWED_HOSTS = '';

  /**
   * An OpenAI-compatible `/chat/completions` endpoint for the answer bot's generative answers
   * (e.g. `https://api.openai.com/v1`); without it (and LLM_MODEL) they are off.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  LLM_BASE_URL?: string;

  /** The key sent as `Authorization: Bearer` to LLM_BASE_URL (a secret: never logged). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  LLM_API_KEY?: string;

  /** The model named in each request to LLM_BASE_URL. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  LLM_MODEL?: string;

  /** How long a generated answer may take; past it the visitor is handed to the team at once. */
  @Transform(toInteger)
  @IsInt()
  @Min(500)
  LLM_TIMEOUT_MS = 15_000;

  /** Pause in ms of each of a content import's two readers between two pages. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  CRAWL_DELAY_MS = 250;

  /** Deadline in ms of one page of a content import, first byte asked to last byte read. */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  CRAWL_PAGE_TIMEOUT_MS = 10_000;

  /**
   * Seconds between two looks into an inbox's IMAP mailbox (a server with IDLE also tells of new
   * mail at once); also how often each instance looks for mailboxes to take over.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  IMAP_POLL_SECONDS = 60;

  /**
   * Agent notifications by email: at most one mail per agent and conversation (or ticket) in
   * this many seconds; what happens in between is grouped into the next one.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  AGENT_NOTIFY_DIGEST_SECONDS = 300;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  /** Tests only: the instant appointment availability is computed as of (unset: the real time). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/, {
    message: 'must be an ISO 8601 instant, e.g. 2027-03-20T08:00:00Z',
  })
  APPOINTMENTS_NOW?: string;

  /** Run the background workers (outbox dispatcher, queue consumers) in this process. */
  @Transform(toBoolean)
  @IsBoolean()
  WORKERS_ENABLED = true;

  /**
   * Express `trust proxy`: whether (and which hops') `X-Forwarded-For` is believed for the client
   * address. `false` (default): never; `true`; a hop count; or comma-separated addresses, CIDRs
   * or the names `loopback`, `linklocal`, `uniquelocal`.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(true|false|\d+|[0-9A-Za-z.:/]+(\s*,\s*[0-9A-Za-z.:/]+)*)$/, {
    message: 'must be true, false, a hop count or comma-separated addresses, CIDRs or names',
  })
  TRUST_PROXY = 'false';

  /**
   * A request header the proxy in front of the service sets to the visitor's country (ISO 3166-1
   * alpha-2, e.g. `cf-ipcountry` behind Cloudflare). Unset (default): a visitor's country stays
   * empty. Only set it behind a proxy that overwrites the header.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9-]+$/, { message: 'must be a header name such as cf-ipcountry' })
  COUNTRY_HEADER?: string;

  /** Origins besides PUBLIC_URL's whose cookie-authenticated agent requests are accepted. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/[^\s,/]+(\s*,\s*https?:\/\/[^\s,/]+)*$/, {
    message: 'must be comma-separated origins such as https://dashboard.example.com',
  })
  DASHBOARD_ORIGINS?: string;

  /** scrypt cost N of new password hashes (a power of two; OWASP's minimum is 2^17). */
  @Transform(toInteger)
  @IsInt()
  @Min(1024)
  @Max(1048576)
  PASSWORD_SCRYPT_N = 131072;

  /** Absolute lifetime of an agent session, however active, in days. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(365)
  SESSION_MAX_AGE_DAYS = 30;

  /** Sign-ups per client address per hour. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  SIGNUP_LIMIT_PER_HOUR = 10;

  /** Widget API calls per client address and site per minute. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  WIDGET_LIMIT_PER_MINUTE = 120;

  /** Messages one visitor may send per minute (HTTP and socket together). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  VISITOR_MESSAGE_LIMIT_PER_MINUTE = 20;

  /** Trusted visitor logins per organization per minute. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  TRUSTED_LOGIN_LIMIT_PER_MINUTE = 300;

  /**
   * Failed agent logins of one client at one address (and of one address, against clients that
   * failed at it) before each further attempt waits, 2 s doubling per failure (up to 15 min).
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  LOGIN_FREE_FAILURES = 3;

  /** Failed agent logins from one client address over all addresses before it waits likewise. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  LOGIN_FREE_FAILURES_PER_CLIENT = 10;

  /** Login-code mails per recipient per hour; a site may send 50 times as many. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  OTP_MAIL_LIMIT_PER_HOUR = 5;

  /** Socket events per connection: the token bucket's refill per second and its size. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  SOCKET_EVENTS_PER_SECOND = 10;

  @Transform(toInteger)
  @IsInt()
  @Min(1)
  SOCKET_EVENT_BURST = 30;

  /** Webhook endpoints one organization may have. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  WEBHOOK_ENDPOINTS_MAX = 20;

  /** Upcoming (pending or confirmed, not yet started) appointments one visitor may hold. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  BOOKINGS_PER_VISITOR_MAX = 3;

  /** Widget bookings from one client address per site per hour (429 past it). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  BOOKINGS_PER_ADDRESS_PER_HOUR = 5;

  /** Widget bookings one site takes per hour from all visitors (429 past it). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  BOOKINGS_PER_SITE_PER_HOUR = 60;

  /**
   * Upcoming appointments visitors booked on one site that no agent has handled yet (429 past it):
   * what anonymous visitors can hold at once, however many addresses they use.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  BOOKINGS_UNHANDLED_PER_SITE_MAX = 200;

  /** Uploads one visitor may hold unsent (429 past it). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  VISITOR_UNSENT_UPLOADS_MAX = 10;

  /** Megabytes one visitor may upload per hour (429 past it). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  VISITOR_UPLOAD_MB_PER_HOUR = 25;

  /** Megabytes visitors may upload from one client address per hour (429 past it). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  ADDRESS_UPLOAD_MB_PER_HOUR = 50;

  /** Attachment storage per organization in megabytes (413 past it). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  STORAGE_QUOTA_MB_PER_ORG = 1024;

  /**
   * Socket.IO transports the server accepts: `websocket,polling` (default) or `websocket`. With
   * several instances behind a load balancer without sticky sessions, `websocket` only: a
   * long-polling session's requests must all reach the instance that opened it.
   */
  @IsIn(['websocket,polling', 'websocket'])
  SOCKET_TRANSPORTS: 'websocket,polling' | 'websocket' = 'websocket,polling';

  /**
   * On SIGTERM, how long the instance keeps serving after its readiness starts failing, so a
   * load balancer that polls readiness stops sending it requests before it stops listening.
   * Kubernetes' own `preStop` pause does this there (deploy/kubernetes), so the default is 0.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  SHUTDOWN_DRAIN_MS = 0;

  /**
   * On SIGTERM, how long running jobs may take to finish before they are handed back to the
   * queue (another instance runs them again) and the worker stops.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  SHUTDOWN_JOB_WAIT_MS = 10_000;

  /**
   * The bearer token `GET /metrics` requires. Unset (default): the route answers 404 and no
   * metric is counted.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\S{16,}$/, { message: 'must be at least 16 characters without spaces' })
  METRICS_TOKEN?: string;

  /**
   * With metrics on: seconds between two background reads of the figures kept in the database
   * (queue depths and oldest jobs, the outbox backlog), so a scrape never waits on them.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(300)
  METRICS_SAMPLE_SECONDS = 5;

  /**
   * Platform administrators by address: comma-separated addresses, each counting only for a login
   * its person signed up for and confirmed by the mailed link (never a member an owner made or
   * invited). Besides them, the logins granted with `npm run cli -- admin:grant <email>`. They
   * reach `/api/platform/...` and the Admin area.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[^\s@,]+@[^\s@,]+(\s*,\s*[^\s@,]+@[^\s@,]+)*$/, {
    message: 'must be comma-separated email addresses',
  })
  PLATFORM_ADMIN_EMAILS?: string;

  /** Largest accepted JSON request body. */
  @Transform(emptyToUndefined)
  @Matches(/^\d+(b|kb|mb)$/i, { message: 'must be a size such as 100kb or 1mb' })
  BODY_LIMIT = '1mb';

  /** Largest accepted attachment upload, in bytes (larger is a 413). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
}

/**
 * The name of every variable the service reads: every property the schema validates (those
 * without a default have no own key on a fresh instance, so they are taken from the metadata).
 */
export const ENVIRONMENT_KEYS = [
  ...new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(Environment, '', true, false)
      .map((metadata) => metadata.propertyName),
  ),
] as (keyof Environment)[];
