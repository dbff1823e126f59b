import { isColumnName, isTableName, quoteColumn, quoteTable } from './identifiers';
import {
  accountByIdentifier,
  accountByKey,
  recordSearch,
  rulePage,
  ruleRow,
} from './lookup-queries';
import type { AccountSettings } from './lookup-settings';
import { MYSQL, POSTGRES } from './sql-dialect';
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
    expect(quoteTable(POSTGRES, 'shop.payments')).toBe('"shop"."payments"');
    expect(quoteTable(MYSQL, 'shop.payments')).toBe('`shop`.`payments`');
    expect(() => quoteColumn(POSTGRES, 'a"; DROP TABLE x; --')).toThrow();
    expect(() => quoteColumn(MYSQL, 'a`; DROP TABLE x; --')).toThrow();
  });
});

describe('owner queries (PostgreSQL)', () => {
  it('bind every value and put the account condition first', () => {
    const query = recordSearch(POSTGRES, record, '7', {
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
    const query = rulePage(POSTGRES, rule, '7', 3);
    expect(query.text).toContain('ORDER BY src."created_at" DESC NULLS LAST, src."id"::text');
    expect(query.values).toEqual(['7', 6, 10]);
    expect(ruleRow(POSTGRES, rule, '7', '42').values).toEqual(['7', '42']);
  });

  it('match emails ignoring case and mobiles ignoring punctuation', () => {
    expect(
      accountByIdentifier(
        POSTGRES,
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
        POSTGRES,
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

const account: AccountSettings = {
  table: 'shop.customers',
  key_column: 'id',
  lookup_columns: ['email', 'mobile'],
  email_column: 'email',
  name_column: null,
};

/** How many placeholders a MySQL statement has: each must have its value, in order. */
const marks = (text: string) => text.split('?').length - 1;

describe('owner queries (MySQL/MariaDB)', () => {
  it('quote with backticks, bind with ? and write counts out', () => {
    const query = recordSearch(MYSQL, record, '7', {
      txn: "' OR 1=1 --",
      status: 'Paid',
      date_from: '2026-01-01',
      date_to: '2026-01-31',
    });
    expect(query.text).not.toContain('OR 1=1');
    expect(query.text).not.toContain('"');
    expect(query.text).toContain('FROM `shop`.`payments` AS src');
    expect(query.text).toContain('CAST(src.`txn_id` AS CHAR) AS `txn_id`');
    expect(query.text).toContain('src.`paid_at` >= CAST(? AS DATE)');
    expect(query.text).toContain('src.`paid_at` < DATE_ADD(CAST(? AS DATE), INTERVAL 1 DAY)');
    expect(query.text).toContain('ORDER BY src.`paid_at` IS NULL, src.`paid_at` DESC LIMIT 20');
    expect(marks(query.text)).toBe(query.values.length);
    expect(query.values).toEqual([
      '7',
      '7',
      "' OR 1=1 --",
      "' OR 1=1 --",
      'Paid',
      '2026-01-01',
      '2026-01-31',
    ]);
  });

  it('compare keys as exact binary text, so "abc" cannot match a number column\'s 0', () => {
    const query = ruleRow(MYSQL, rule, '7', 'abc');
    expect(query.text).toMatch(
      /WHERE \(src\.`customer_id` = \? AND CAST\(CAST\(src\.`customer_id` AS CHAR\) AS BINARY\) = \?\)\s+AND \(src\.`id` = \? AND CAST\(CAST\(src\.`id` AS CHAR\) AS BINARY\) = \?\)/,
    );
    expect(query.values).toEqual(['7', '7', 'abc', 'abc']);
    const key = accountByKey(MYSQL, account, '1');
    expect(key.text).toContain('CAST(src.`id` AS CHAR) AS `key`');
    expect(key.text).toContain('CAST(NULL AS CHAR) AS `name`');
    expect(marks(key.text)).toBe(key.values.length);
  });

  it('page with NULLs last in either direction and the counts written out', () => {
    const query = rulePage(MYSQL, { ...rule, direction: 'asc' }, '7', 3);
    expect(query.text).toContain(
      'ORDER BY src.`created_at` IS NULL, src.`created_at` ASC, CAST(src.`id` AS CHAR)',
    );
    expect(query.text).toMatch(/LIMIT 6\s+OFFSET 10$/);
    expect(query.values).toEqual(['7', '7']);
  });

  it('match emails ignoring case and mobiles ignoring punctuation, both as binary text', () => {
    const email = accountByIdentifier(MYSQL, account, 'A@B.test');
    expect(email.text).toContain(
      'CAST(LOWER(CAST(src.`email` AS CHAR)) AS BINARY) = CAST(LOWER(?) AS BINARY)',
    );
    expect(email.values).toEqual(['A@B.test', 'A@B.test']);
    const mobile = accountByIdentifier(MYSQL, account, '+44 (20) 7946-0001');
    expect(mobile.text).toContain(
      "CAST(REGEXP_REPLACE(CAST(src.`mobile` AS CHAR), '[[:space:]().-]', '') AS BINARY) = ?",
    );
    expect(mobile.values).toEqual(['+442079460001', '+442079460001']);
    expect(mobile.text).toMatch(/LIMIT 2$/);
  });

  it('refuse a count that is not a whole number', () => {
    expect(() => rulePage(MYSQL, rule, '7', 0.5)).toThrow('not a count');
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
