import type { FieldErrors } from '../../common/errors/app-error';
import { isColumnName, isTableName } from './identifiers';
import type { DataLookupSettings } from './lookup-settings';
import { placeholders } from './table-markup';

/** The owner database's columns (name to data type) of each table the settings name. */
export type Catalog = Map<string, Map<string, string>>;

const DATE_TYPES = /^(date|timestamp)/;

/**
 * Every problem of the settings' identifiers, named by its path (`filter_record.columns.2`): a
 * name the whitelist refuses, and, with the catalog, a table or column the database does not
 * have (or the login cannot see). Without a catalog only the names' form is checked.
 */
export function settingsErrors(settings: DataLookupSettings, catalog?: Catalog): FieldErrors {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);

  /** Checks a table; answers its columns when it exists (or when there is no catalog yet). */
  const table = (field: string, name: string): Map<string, string> | undefined | null => {
    if (!isTableName(name)) {
      fail(
        field,
        `The table name ${JSON.stringify(name)} is not allowed: use letters, digits and underscores (optionally schema.table).`,
      );
      return undefined;
    }
    if (!catalog) return null;
    const columns = catalog.get(name);
    if (!columns)
      fail(field, `The table ${name} does not exist in the database, or the login cannot read it.`);
    return columns;
  };
  /** Checks a column of a table checked before (`null`: no catalog; undefined: table missing). */
  const column = (
    field: string,
    name: string,
    columns: Map<string, string> | undefined | null,
    tableName: string,
  ): string | undefined => {
    if (!isColumnName(name)) {
      fail(
        field,
        `The column name ${JSON.stringify(name)} is not allowed: use letters, digits and underscores.`,
      );
      return undefined;
    }
    if (columns === undefined || columns === null) return undefined;
    const type = columns.get(name);
    if (type === undefined) fail(field, `The table ${tableName} has no column ${name}.`);
    return type;
  };
  const list = (
    field: string,
    names: string[],
    columns: Map<string, string> | undefined | null,
    tableName: string,
  ) => {
    names.forEach((name, index) => column(`${field}.${index}`, name, columns, tableName));
    if (new Set(names).size !== names.length) fail(field, 'Each column may be named once.');
  };

  const account = settings.account;
  const accountColumns = table('account.table', account.table);
  column('account.key_column', account.key_column, accountColumns, account.table);
  list('account.lookup_columns', account.lookup_columns, accountColumns, account.table);
  if (account.email_column !== null) {
    column('account.email_column', account.email_column, accountColumns, account.table);
  } else if (settings.require_otp) {
    fail('account.email_column', 'The email_column field is required when require_otp is true.');
  }
  if (account.name_column !== null) {
    column('account.name_column', account.name_column, accountColumns, account.table);
  }

  const record = settings.filter_record;
  if (record) {
    const columns = table('filter_record.table', record.table);
    column('filter_record.account_column', record.account_column, columns, record.table);
    list('filter_record.columns', record.columns, columns, record.table);
    for (const [preset, name] of Object.entries(record.filters)) {
      const type = column(`filter_record.filters.${preset}`, name, columns, record.table);
      if (preset === 'date' && type !== undefined && !DATE_TYPES.test(type)) {
        fail(
          'filter_record.filters.date',
          `The column ${name} must be a date or timestamp column.`,
        );
      }
    }
  }

  const ruleIds = new Set<string>();
  settings.rules.forEach((rule, index) => {
    const at = `rules.${index}`;
    if (ruleIds.has(rule.id)) fail(`${at}.id`, 'Each rule id must be unique.');
    ruleIds.add(rule.id);
    const columns = table(`${at}.table`, rule.table);
    column(`${at}.account_column`, rule.account_column, columns, rule.table);
    list(`${at}.columns`, rule.columns, columns, rule.table);
    if (rule.order_by !== null) column(`${at}.order_by`, rule.order_by, columns, rule.table);
    if (!rule.columns.includes(rule.row_key)) {
      fail(`${at}.row_key`, 'The row_key must be one of the rule columns.');
    }
    const actionIds = new Set<string>();
    rule.actions.forEach((action, actionIndex) => {
      const actionAt = `${at}.actions.${actionIndex}`;
      if (actionIds.has(action.id)) fail(`${actionAt}.id`, 'Each action id must be unique.');
      actionIds.add(action.id);
      const unknown = placeholders(action.reply).filter((name) => !rule.columns.includes(name));
      if (unknown.length > 0) {
        fail(
          `${actionAt}.reply`,
          `The reply may only use the rule columns, not ${unknown.join(', ')}.`,
        );
      }
    });
  });
  return errors;
}

/** The table names the settings use, each once. */
export function tablesOf(settings: DataLookupSettings): string[] {
  return [
    ...new Set([
      settings.account.table,
      ...(settings.filter_record ? [settings.filter_record.table] : []),
      ...settings.rules.map((rule) => rule.table),
    ]),
  ];
}
