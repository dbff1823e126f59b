/**
 * The dashboard's sentence for every error slug it can meet (`error_reason` and each field's
 * slug in `field_reasons`; issue 32). The server's English text is shown only for a slug missing
 * here, and `error-messages.spec.ts` fails when one is missing: it reads the server's registry.
 */
export const errorMessages = {
  // Generic field codes: what a field's rule says, whichever the field.
  'error.reason.required': 'This field is required.',
  'error.reason.invalid': 'This value was not accepted. Check it and try again.',
  'error.reason.not_string': 'This must be text.',
  'error.reason.not_integer': 'This must be a whole number.',
  'error.reason.not_number': 'This must be a number.',
  'error.reason.not_boolean': 'This must be yes or no.',
  'error.reason.not_list': 'This must be a list.',
  'error.reason.not_object': 'This value has the wrong form.',
  'error.reason.not_null': 'This cannot be left empty.',
  'error.reason.not_email': 'Enter a valid email address.',
  'error.reason.not_url': 'Enter a valid web address.',
  'error.reason.not_date': 'Enter a valid date.',
  'error.reason.not_time_zone': 'Choose a time zone from the list.',
  'error.reason.not_in_list': 'Choose one of the offered values.',
  'error.reason.not_unique': 'Each entry may appear only once.',
  'error.reason.not_empty': 'This cannot be empty.',
  'error.reason.too_long': 'This is too long.',
  'error.reason.too_short': 'This is too short.',
  'error.reason.too_many': 'There are too many entries.',
  'error.reason.too_few': 'Add at least one entry.',
  'error.reason.too_small': 'This number is too small.',
  'error.reason.too_large': 'This number is too large.',
  'error.reason.out_of_range': 'This number is out of range.',
  'error.reason.invalid_format': 'This is not in the expected format.',
  'error.reason.invalid_text': 'This text holds characters that cannot be saved.',
  'error.reason.too_deep': 'This value is nested too deeply.',

  // Limits and files.
  'error.reason.too_many_attempts': 'Too many attempts. Wait a moment, then try again.',
  'error.reason.file_too_large': 'The file is too large.',
  'error.reason.file_type_refused': 'This type of file is not accepted.',
  'error.reason.file_empty': 'The file is empty.',
  'error.reason.storage_full':
    "Your organization's file storage is full: delete older conversations or ask the operator for more space.",
  'error.reason.avatar_too_large': 'The picture is larger than 512 KiB.',

  // Conversations and tickets.
  'error.reason.conversation_closed': 'This conversation is closed.',
  'error.reason.conversation_superseded':
    'The visitor has started another conversation since: reply there.',
  'error.reason.attachment_not_yours': 'An attachment could not be sent: upload it again.',
  'error.reason.snooze_in_past': 'Choose a time in the future.',
  'error.reason.snooze_too_far': 'Choose a time within the next year.',
  'error.reason.search_text_empty': 'Type at least one letter or digit to search.',
  'error.reason.agent_not_in_organization': 'This person is no longer on your team.',
  'error.reason.conversation_not_in_organization': 'This conversation is not in your organization.',
  'error.reason.visitor_not_in_organization': 'This visitor is not in your organization.',
  'error.reason.ticket_change_empty': 'Change the status, the priority or the assignee.',
  'error.reason.slot_taken': 'Another appointment was booked at this time meanwhile.',
  'error.reason.date_range_invalid': 'The end date cannot be before the start date.',

  // Team, accounts and sign-in.
  'error.reason.owner_only': 'Only an owner can do this.',
  'error.reason.admin_only': 'Only an owner or an admin can do this.',
  'error.reason.last_owner':
    'Your organization needs at least one owner: make someone else owner first.',
  'error.reason.email_taken': 'An account with this email address already exists.',
  'error.reason.already_member': 'This person is already on the team.',
  'error.reason.account_exists': 'This address already has an account: log in instead.',
  'error.reason.invitation_needs_password':
    'This address already has an account: enter its password to accept.',
  'error.reason.invitation_invalid':
    'This invitation link no longer works: ask for a new invitation.',
  'error.reason.reset_link_invalid': 'This reset link no longer works: ask for a new one.',
  'error.reason.confirmation_link_invalid':
    'This confirmation link no longer works: ask for a new one.',
  'error.reason.email_unverified': 'Confirm your email address first: open the link we mailed you.',
  'error.reason.password_too_short': 'Choose a password of at least 8 characters.',
  'error.reason.password_incorrect': 'That password is not right.',
  'error.reason.current_password_required': 'Enter your current password to choose a new one.',
  'error.reason.credentials_invalid': 'The email address or the password is not right.',
  'error.reason.signup_disabled': 'New sign-ups are turned off on this server.',
  'error.reason.sso_required': 'Your organization signs in with single sign-on: use SSO instead.',
  'error.reason.sso_session_locked':
    'You signed in with single sign-on: log in with your password to switch organizations.',
  'error.reason.sso_issuer_invalid':
    "Enter the public https:// address of your identity provider. A private or local address, or plain http://, works only if this service's operator lists its host in SSO_ALLOWED_HOSTS.",
  'error.reason.sso_issuer_unreachable':
    'The identity provider cannot be reached right now. Try again later.',
  'error.reason.sso_manages_two_factor':
    'You signed in with single sign-on: your identity provider manages your second factor.',
  'error.reason.two_factor_required':
    'Your organization requires two-factor authentication: set it up in Profile and security first.',
  'error.reason.two_factor_already_on': 'Two-factor authentication is already on.',
  'error.reason.two_factor_off': 'Two-factor authentication is off.',
  'error.reason.two_factor_setup_not_started': 'Start the setup again: no code was expected.',
  'error.reason.two_factor_code_invalid':
    'The code is not valid: type the current one from your app.',
  'error.reason.recovery_code_invalid': 'That recovery code is not right or was already used.',
  'error.reason.login_step_expired': 'This sign-in took too long: log in again with your password.',

  // Plans, sites and settings.
  'error.reason.feature_not_in_plan': "This feature is not included in your organization's plan.",
  'error.reason.site_not_in_organization': 'Pick one of your sites.',
  'error.reason.organization_has_no_site': 'Add a site first.',
  'error.reason.name_taken': 'This name is already in use: choose another.',
  'error.reason.shortcut_taken': 'This shortcut is already in use: choose another.',
  'error.reason.question_taken': 'This site already has a reply to this question.',
  'error.reason.slug_taken': 'This address is already in use in this language: choose another.',
  'error.reason.category_not_in_site': 'Choose a category of the same site and language.',
  'error.reason.translation_invalid':
    'This article cannot be linked as a translation: choose an article of the same site in another language.',
  'error.reason.labels_unknown': 'Some of these labels no longer exist: reload and try again.',
  'error.reason.macro_response_missing':
    "This macro's canned response no longer exists: edit the macro.",
  'error.reason.help_center_locale_invalid': 'Pick a default language among the languages offered.',
  'error.reason.pre_chat_keys_not_unique': 'Give each field its own key: two fields share one.',
  'error.reason.inbox_address_taken': 'Another inbox already uses this address.',
  'error.reason.inbox_address_reserved':
    "This address is the service's own (its reply domain, its sender or a role address): use your support address.",
  'error.reason.inbox_agent_gone': 'This person is no longer on your team.',
  'error.reason.import_running': 'An import of this site is already running.',
  'error.reason.import_not_running': 'No import of this site is running.',
  'error.reason.import_start_url_missing':
    'Enter the address to start from: the site has no domain.',
  'error.reason.report_range_invalid': 'The end date cannot be before the start date.',
  'error.reason.report_range_too_long': 'Choose a shorter period.',
  'error.reason.webhook_limit': 'You have the most webhook endpoints allowed: delete one first.',
  'error.reason.webhook_https_required': 'The address must start with https://.',
  'error.reason.webhook_endpoint_disabled': 'Enable the endpoint before redelivering.',
  'error.reason.job_not_failed': 'Only a failed job can be retried.',
  'error.reason.job_running': 'A running job cannot be removed.',
  'error.reason.trusted_login_secret_missing': 'Generate a secret before turning trusted login on.',
  'error.reason.owner_database_unreadable':
    'The database could not be read: check the connection address.',
  'error.reason.data_lookup_rule_unknown': 'This rule no longer exists: reload the page.',
  'error.reason.data_lookup_action_unknown': 'This action no longer exists: reload the page.',
};

/**
 * The generic field codes (the server's `FIELD_CODES`: what a field's rule says, whichever the
 * field). Where a form knows a field better it words these by the field; a domain slug
 * (`name_taken`) always gets its own sentence. `error-messages.spec.ts` keeps the list true.
 */
export const GENERIC_FIELD_CODES: readonly string[] = [
  'required',
  'invalid',
  'not_string',
  'not_integer',
  'not_number',
  'not_boolean',
  'not_list',
  'not_object',
  'not_null',
  'not_email',
  'not_url',
  'not_date',
  'not_time_zone',
  'not_in_list',
  'not_unique',
  'not_empty',
  'too_long',
  'too_short',
  'too_many',
  'too_few',
  'too_small',
  'too_large',
  'out_of_range',
  'invalid_format',
  'invalid_text',
  'too_deep',
];
