/**
 * What a settings form says under a field the API refused (a 422 names the field; its own text
 * is never shown). Keyed by the field's wire name without list positions, most specific first:
 * `settings.field.account.table`, then `settings.field.table`; `settings.fieldError.generic` when the
 * catalog has no sentence for the field (see `fieldErrorsOf`).
 */
export const settingsFieldMessages = {
  'settings.fieldError.generic': 'This value was not accepted. Check it and try again.',
  'settings.fieldError.several': 'Some values were not accepted: see the messages at the fields.',

  // Names, texts and addresses used across the settings.
  'settings.field.name': 'Enter a name (it cannot be blank or overly long).',
  'settings.field.description': 'Keep the description to 255 characters or fewer.',
  'settings.field.email': 'Enter an email address, such as name@example.com.',
  'settings.field.address': 'Enter an email address, such as support@example.com.',
  'settings.field.role': 'Pick a role: owner, admin or agent.',
  'settings.field.url': 'Enter a full address that starts with https://.',
  'settings.field.color': 'Pick a colour, written as # and six hexadecimal digits (#1F6FEB).',
  'settings.field.site_id': 'Pick one of your sites.',
  'settings.field.current_password': 'Enter your current password.',
  'settings.field.new_password': 'Choose a password of at least 8 characters.',

  // Sites and the widget.
  'settings.field.domain': 'Enter a domain such as example.com, without https:// or a path.',
  'settings.field.allowed_domains':
    'Enter each allowed domain as example.com or *.example.com, without https:// or a path.',
  'settings.field.timezone': 'Pick a time zone from the list.',
  'settings.field.retention_days': 'Enter a number of days from 1 to 36500, or leave it empty.',
  'settings.field.position': 'Pick a corner for the launcher.',
  'settings.field.greeting': 'Keep the greeting to 200 characters or fewer.',
  'settings.field.launcher_label': 'Keep the launcher text short (up to 40 characters).',
  'settings.field.away_message': 'Keep the away message to 500 characters or fewer.',
  'settings.field.reply_time': 'Pick one of the reply times offered.',
  'settings.field.mode': 'Pick what the widget does when nobody is online.',
  'settings.field.business_hours': 'Each day needs start times before end times, as HH:MM.',
  'settings.field.title': 'Enter a shorter title.',
  'settings.field.locales': 'Pick at least one language from the list.',
  'settings.field.default_locale': 'Pick a default language among the languages offered.',
  'settings.field.text': 'Keep the text to 1,000 characters or fewer.',
  'settings.field.privacy_url':
    'Enter the full address of your privacy page, starting with https://.',
  'settings.field.menu_label': 'Keep the menu label to 80 characters or fewer.',
  'settings.field.logout_label': 'Keep the log-out label to 80 characters or fewer.',
  'settings.field.pre_chat_form.fields': 'Give each field its own key: two fields share one.',
  'settings.field.delay_minutes': 'Enter a whole number of minutes (0 or more).',
  'settings.field.label': 'Enter a label (it cannot be blank or overly long).',
  'settings.field.key':
    'Enter a key of lowercase letters, digits and underscores, different from the other fields.',
  'settings.field.type': 'Pick one of the types offered.',

  // Labels, canned responses, API keys, email, webhooks, single sign-on.
  'settings.field.shortcut':
    'Enter a shortcut of lower-case letters, digits, dashes and underscores (up to 50), not used by another reply.',
  'settings.field.body': 'Enter the text of the reply.',
  'settings.field.abilities': 'Pick at least one ability.',
  'settings.field.events': 'Pick at least one event.',
  'settings.field.issuer':
    "Enter the public https:// address of your identity provider. A private or local address, or plain http://, works only if this service's operator lists its host in SSO_ALLOWED_HOSTS.",
  'settings.field.start_url':
    "Enter the full https:// address of the first page to read. A private or local address works only if this service's operator lists its host in CRAWL_ALLOWED_HOSTS.",
  'settings.field.client_id': 'Enter the client ID your identity provider gave you.',
  'settings.field.client_secret': 'Enter the client secret your identity provider gave you.',

  // Appointments.
  'settings.field.enabled': 'Turn it on or off.',
  'settings.field.duration_minutes': 'Enter a length from 5 to 240 minutes.',
  'settings.field.buffer_minutes': 'Enter a break from 0 to 120 minutes.',
  'settings.field.slot_interval_minutes': 'Enter a step from 5 to 120 minutes.',
  'settings.field.advance_days': 'Enter a number of days from 1 to 90.',
  'settings.field.min_notice_hours': 'Enter a number of hours from 0 to 168.',
  'settings.field.working_hours':
    'Each range needs a start before its end, as HH:MM, without overlaps.',
  'settings.field.start': 'Enter a start time as HH:MM, before the end.',
  'settings.field.end': 'Enter an end time as HH:MM, after the start.',
  'settings.field.status': 'Pick one of the statuses offered.',
  'settings.field.notes': 'Keep the notes to 2,000 characters or fewer.',

  // Data lookup: identifiers are checked against the database itself.
  'settings.field.connection.driver': 'Pick PostgreSQL or MySQL / MariaDB.',
  'settings.lookup.error.refused':
    'This service may not connect to that database host. Its operator allows a host by adding it to DATA_LOOKUP_ALLOWED_HOSTS.',
  'settings.lookup.error.authentication':
    'The database refused the login: check the user name and password in the URL.',
  'settings.lookup.error.timeout':
    'The database did not answer in time: check the host and port, and that it accepts connections from this service.',
  'settings.lookup.error.unreachable':
    'The database could not be reached or read: check the host, port and database name in the URL.',
  'settings.lookup.error.scheme':
    'Use a postgres:// URL for PostgreSQL, or a mysql:// or mariadb:// URL for MySQL / MariaDB.',
  'settings.field.connection.url':
    'Enter the database URL, such as postgres://reader:secret@db.example:5432/shop.',
  'settings.field.table':
    'Enter a table that exists in the database: letters, digits and underscores (optionally schema.table).',
  'settings.field.key_column':
    'Enter a column of the account table that exists in the database: letters, digits and underscores.',
  'settings.field.lookup_columns':
    'Add at least one column that a customer can be found by, such as email.',
  'settings.field.email_column':
    'Enter a column of the account table that exists, or leave it empty.',
  'settings.field.name_column':
    'Enter a column of the account table that exists, or leave it empty.',
  'settings.field.account_column':
    'Enter the column of this table that holds the account key; it must exist in the database.',
  'settings.field.columns':
    'Add columns that exist in this table: letters, digits and underscores.',
  'settings.field.order_by': 'Enter a column of this table that exists, or leave it empty.',
  'settings.field.page_size': 'Enter a number of rows from 1 to 50.',
  'settings.field.id': 'Enter an ID of lowercase letters, digits and underscores, used only once.',
  'settings.field.keywords': 'Add at least one keyword.',
  'settings.field.reply': 'Enter the reply shown to the customer.',
  'settings.field.button_label': 'Keep the button text to 80 characters or fewer.',
  'settings.field.filters': 'Enter a column of this table that exists, or leave it empty.',
} as const;
