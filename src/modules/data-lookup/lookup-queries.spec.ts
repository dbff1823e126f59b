import { isColumnName, isTableName, quoteColumn, quoteTable } from './identifiers';
import { accountByIdentifier, recordSearch, rulePage, ruleRow } from './lookup-queries';
import type { FilterRecordSettings, LookupRule } from './lookup-settings';
import { matchRule } from './lookup-settings';

const record: FilterRecordSettings = {
  enabled: true,
  button_label: 'Find',
  table: 'shop.payments',
  account_column: 'customer_id',
  filters: { txn: 'txn_id', status: 'status', date: 'paid_at' },
  columns: ['txn_id', 'amount'],
  limit: 20,
  empty_reply: '',
  login_required_reply: '',
};

const rule: LookupRule = {
  id: 'orders',
  label: 'My orders',
  keywords: ['order', 'Bestellung'],
  table: 'orders',
  account_column: 'customer_id',
  columns: ['id', 'total'],
  order_by: 'created_at',
  direction: 'desc',
  page_size: 5,
  row_key: 'id',
  actions: [],
};

describe('identifiers', () => {
  it('admit plain names only, and quote them', () => {
    for (const bad of ['', '1st', 'a b', 'a"b', 'a;b', 'a-b', 'x'.repeat(64), 'a.b']) {
      expect(isColumnName(bad)).toBe(false);
    }
    expect(isTableName('shop.payments')).toBe(true);
    expect(isTableName('a.b.c')).toBe(false);
    expect(quoteTable('shop.payments')).toBe('"shop"."payments"');
    expect(() => quoteColumn('a"; DROP TABLE x; --')).toThrow();
  });
});

describe('owner queries', () => {
  it('bind every value and put the account condition first', () => {
    const query = recordSearch(record, '7', {
      txn: "' OR 1=1 --",
      status: 'Paid',
      date_from: '2026-01-01',
      date_to: '2026-01-31',
      utr: 'ignored: not mapped',
    });
    expect(query.text).not.toContain('OR 1=1');
    expect(query.text).toMatch(/WHERE src\."customer_id" = \$1 AND /);
    expect(query.text).toContain('FROM "shop"."payments" AS src');
    expect(query.text).toContain('ORDER BY src."paid_at" DESC NULLS LAST LIMIT $6');
    expect(query.values).toEqual(['7', "' OR 1=1 --", 'Paid', '2026-01-01', '2026-01-31', 20]);
  });

  it('page rules by value (not by their text) with a one-row look-ahead', () => {
    const query = rulePage(rule, '7', 3);
    expect(query.text).toContain('ORDER BY src."created_at" DESC NULLS LAST, src."id"::text');
    expect(query.values).toEqual(['7', 6, 10]);
    expect(ruleRow(rule, '7', '42').values).toEqual(['7', '42']);
  });

  it('match emails ignoring case and mobiles ignoring punctuation', () => {
    expect(
      accountByIdentifier(
        {
          table: 't',
          key_column: 'id',
          lookup_columns: ['m'],
          email_column: null,
          name_column: null,
        },
        '+44 (20) 7946-0001',
      ).values,
    ).toEqual(['+442079460001']);
    expect(
      accountByIdentifier(
        {
          table: 't',
          key_column: 'id',
          lookup_columns: ['e'],
          email_column: 'e',
          name_column: null,
        },
        'A@B.test',
      ).text,
    ).toContain('lower(src."e"::text) = lower($1)');
  });
});

describe('keyword rules', () => {
  it('match whole words, any case, or the rule label', () => {
    expect(matchRule([rule], 'Where is my ORDER?')?.id).toBe('orders');
    expect(matchRule([rule], 'meine bestellung bitte')?.id).toBe('orders');
    expect(matchRule([rule], 'my orders')?.id).toBe('orders');
    expect(matchRule([rule], 'bordering')).toBeUndefined();
    expect(matchRule([rule], 'preorder')).toBeUndefined();
  });
});
