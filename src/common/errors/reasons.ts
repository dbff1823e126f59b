/**
 * Every `error_reason` and `field_reasons` slug the API can send (issue 32: errors as codes),
 * each with the app that can show it: `dashboard`, `widget`, `both`, or `api` (only API clients
 * meet it: keys, service headers, inbound mail). The wire keeps DESIGN's generic `error_code` and
 * the spec's English texts; the apps show the sentence of their catalog for the slug. The apps'
 * catalog specs read this object, so a slug without a sentence in an app that can show it fails
 * a test, and a typo at a throw site fails the typecheck.
 *
 * The generic field codes come first (what a DTO rule or the text rule reports); the domain
 * reasons follow, by module.
 */
/**
 * The generic field codes: what a DTO rule, the body shape check or the text rule reports about
 * a field, whatever the route. An app may word them by field where it knows the field better.
 */
export const FIELD_CODES = {
  required: 'both',
  invalid: 'both',
  not_string: 'both',
  not_integer: 'both',
  not_number: 'dashboard',
  not_boolean: 'dashboard',
  not_list: 'dashboard',
  not_object: 'dashboard',
  not_null: 'dashboard',
  not_email: 'both',
  not_url: 'dashboard',
  not_date: 'both',
  not_time_zone: 'dashboard',
  not_in_list: 'both',
  not_unique: 'dashboard',
  not_empty: 'both',
  too_long: 'both',
  too_short: 'both',
  too_many: 'both',
  too_few: 'dashboard',
  too_small: 'both',
  too_large: 'both',
  out_of_range: 'dashboard',
  invalid_format: 'both',
  invalid_text: 'both',
  too_deep: 'dashboard',
} as const satisfies Record<string, 'dashboard' | 'widget' | 'both' | 'api'>;

export const ERROR_REASONS = {
  ...FIELD_CODES,

  // Limits and files, wherever they are met.
  too_many_attempts: 'both',
  file_too_large: 'both',
  file_type_refused: 'both',
  file_empty: 'both',

  // Conversations, chat and the widget.
  conversation_closed: 'both',
  conversation_reviewed: 'widget',
  conversation_superseded: 'dashboard',
  no_conversation_yet: 'widget',
  consent_required: 'widget',
  origin_not_allowed: 'widget',
  app_not_allowed: 'widget',
  organization_suspended: 'widget',
  subscription_expired: 'widget',
  attachment_not_yours: 'both',
  storage_full: 'both',
  feedback_given: 'widget',
  snooze_in_past: 'dashboard',
  snooze_too_far: 'dashboard',
  transcript_email_required: 'widget',
  search_text_empty: 'dashboard',
  pre_chat_field_invalid: 'widget',

  // Data lookup, record search and visitor account login.
  data_lookup_disabled: 'widget',
  record_search_disabled: 'widget',
  record_filter_refused: 'widget',
  account_login_disabled: 'widget',
  trusted_login_disabled: 'api',
  trusted_login_secret_missing: 'dashboard',
  owner_database_unavailable: 'widget',
  owner_database_unreadable: 'dashboard',
  data_lookup_rule_unknown: 'dashboard',
  data_lookup_action_unknown: 'dashboard',
  data_lookup_row_incomplete: 'api',

  // Appointments.
  booking_disabled: 'widget',
  slot_unavailable: 'widget',
  slot_taken: 'both',
  appointments_limit: 'widget',
  appointment_conversation_unknown: 'widget',
  date_invalid: 'widget',
  date_range_invalid: 'dashboard',

  // Team, accounts and sign-in.
  owner_only: 'dashboard',
  admin_only: 'dashboard',
  last_owner: 'dashboard',
  email_taken: 'dashboard',
  already_member: 'dashboard',
  account_exists: 'dashboard',
  invitation_needs_password: 'dashboard',
  invitation_invalid: 'dashboard',
  reset_link_invalid: 'dashboard',
  confirmation_link_invalid: 'dashboard',
  email_unverified: 'dashboard',
  password_too_short: 'dashboard',
  password_incorrect: 'dashboard',
  current_password_required: 'dashboard',
  credentials_invalid: 'dashboard',
  signup_disabled: 'dashboard',
  sso_required: 'dashboard',
  sso_session_locked: 'dashboard',
  sso_issuer_invalid: 'dashboard',
  sso_issuer_unreachable: 'dashboard',
  sso_manages_two_factor: 'dashboard',
  two_factor_required: 'dashboard',
  two_factor_already_on: 'dashboard',
  two_factor_off: 'dashboard',
  two_factor_setup_not_started: 'dashboard',
  two_factor_code_invalid: 'dashboard',
  recovery_code_invalid: 'dashboard',
  login_step_expired: 'dashboard',
  avatar_too_large: 'dashboard',
  agent_not_in_organization: 'dashboard',
  session_origin_refused: 'api',
  session_requires_json: 'api',
  api_key_missing_ability: 'api',
  api_key_owner_gone: 'api',
  idempotency_key_invalid: 'api',
  idempotency_key_reused: 'api',
  idempotency_key_in_progress: 'api',

  // Plans.
  feature_not_in_plan: 'both',

  // Sites, knowledge base, macros, labels and the rest of the dashboard.
  site_not_in_organization: 'dashboard',
  organization_has_no_site: 'dashboard',
  name_taken: 'dashboard',
  shortcut_taken: 'dashboard',
  question_taken: 'dashboard',
  slug_taken: 'dashboard',
  category_not_in_site: 'dashboard',
  translation_invalid: 'dashboard',
  labels_unknown: 'dashboard',
  macro_response_missing: 'dashboard',
  help_center_locale_invalid: 'dashboard',
  pre_chat_keys_not_unique: 'dashboard',
  conversation_not_in_organization: 'dashboard',
  visitor_not_in_organization: 'dashboard',
  ticket_change_empty: 'dashboard',
  inbox_address_taken: 'dashboard',
  inbox_address_reserved: 'dashboard',
  inbox_agent_gone: 'dashboard',
  import_running: 'dashboard',
  import_not_running: 'dashboard',
  import_start_url_missing: 'dashboard',
  report_range_invalid: 'dashboard',
  report_range_too_long: 'dashboard',
  webhook_limit: 'dashboard',
  webhook_https_required: 'dashboard',
  webhook_endpoint_disabled: 'dashboard',
  job_not_failed: 'dashboard',
  job_running: 'dashboard',
  mail_unmatched: 'api',
  mail_refused: 'api',
  mail_too_large: 'api',
  mail_not_rfc822: 'api',
  service_not_ready: 'api',
} as const satisfies Record<string, 'dashboard' | 'widget' | 'both' | 'api'>;

/** A slug of `ERROR_REASONS`: a typo at a throw site fails the typecheck. */
export type ErrorReason = keyof typeof ERROR_REASONS;

/** Which app can show a reason. */
export type ReasonAudience = (typeof ERROR_REASONS)[ErrorReason];

/** The slugs an app must have a sentence for. */
export function reasonsShownBy(app: 'dashboard' | 'widget'): ErrorReason[] {
  return (Object.keys(ERROR_REASONS) as ErrorReason[]).filter(
    (reason) => ERROR_REASONS[reason] === app || ERROR_REASONS[reason] === 'both',
  );
}
