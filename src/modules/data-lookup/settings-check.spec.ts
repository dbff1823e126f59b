import type { DataLookupSettings } from './lookup-settings';
import { type Catalog, settingsErrors } from './settings-check';

const settings: DataLookupSettings = {
  enabled: true,
  connection: { driver: 'postgres', url: 'postgres://x' },
  account: {
    table: 'customers',
    key_column: 'id',
    lookup_columns: ['email', 'mobile'],
    email_column: 'email',
    name_column: null,
  },
  require_otp: true,
  filter_record: {
    enabled: true,
    button_label: 'Find',
    table: 'payments',
    account_column: 'customer_id',
    filters: { txn: 'txn_id', date: 'paid_at' },
    columns: ['txn_id', 'amount', 'fee'],
    limit: 20,
    empty_reply: '',
    login_required_reply: '',
  },
  rules: [],
};

const catalog: Catalog = new Map([
  [
    'customers',
    new Map([
      ['id', 'integer'],
      ['email', 'text'],
      ['mobile', 'text'],
    ]),
  ],
  [
    'payments',
    new Map([
      ['customer_id', 'integer'],
      ['txn_id', 'text'],
      ['amount', 'numeric'],
      ['paid_at', 'text'],
    ]),
  ],
]);

describe('settings check', () => {
  it('names malformed identifiers without a catalog', () => {
    const errors = settingsErrors({
      ...settings,
      account: { ...settings.account, lookup_columns: ['email', 'x; --'] },
    });
    expect(Object.keys(errors)).toEqual(['account.lookup_columns.1']);
  });

  it('names each missing table and column and a date filter on a non-date column', () => {
    expect(Object.keys(settingsErrors(settings, catalog))).toEqual([
      'filter_record.columns.2',
      'filter_record.filters.date',
    ]);
    const noTable = settingsErrors(
      { ...settings, account: { ...settings.account, table: 'clients' } },
      catalog,
    );
    expect(Object.keys(noTable)).toEqual([
      'account.table',
      'filter_record.columns.2',
      'filter_record.filters.date',
    ]);
  });
});
