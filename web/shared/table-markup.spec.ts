import { parseBody, unescapeHtml } from './table-markup';

describe('parseBody', () => {
  it('splits text and table blocks', () => {
    const body =
      'Your orders:\n[[table]]{"columns":["id","total"],"rows":[[1,"9.50"],[2,null]]}[[/table]]\nMore?';
    expect(parseBody(body)).toEqual([
      { kind: 'text', text: 'Your orders:\n' },
      {
        kind: 'table',
        table: {
          columns: ['id', 'total'],
          rows: [
            [1, '9.50'],
            [2, null],
          ],
        },
      },
      { kind: 'text', text: '\nMore?' },
    ]);
  });

  it('keeps a malformed block as text', () => {
    const body = '[[table]]{not json}[[/table]]';
    expect(parseBody(body)).toEqual([{ kind: 'text', text: body }]);
  });

  it('refuses columns that are not strings and flattens nested cells', () => {
    expect(parseBody('[[table]]{"columns":[1],"rows":[]}[[/table]]')[0].kind).toBe('text');
    expect(parseBody('[[table]]{"columns":["a"],"rows":[[{"x":1}]]}[[/table]]')).toEqual([
      { kind: 'table', table: { columns: ['a'], rows: [['{"x":1}']] } },
    ]);
  });
});

describe('table blocks of data-lookup rules', () => {
  it('keep the rule, page, "more" and the row actions', () => {
    const body =
      'My orders\n[[table]]{"columns":["id"],"rows":[["7"]],"rule_id":"orders","page":1,"has_more":true,"row_key":"id","actions":[{"id":"track","label":"Track"},{"bad":1}]}[[/table]]';
    const [, table] = parseBody(body);
    expect(table).toEqual({
      kind: 'table',
      table: {
        columns: ['id'],
        rows: [['7']],
        lookup: {
          rule_id: 'orders',
          page: 1,
          has_more: true,
          row_key: 'id',
          actions: [{ id: 'track', label: 'Track' }],
        },
      },
    });
  });

  it('turn the service escapes of reply text back for display as text', () => {
    expect(unescapeHtml('Order &lt;7&gt; &amp; &quot;more&quot; &#39;x&#39;')).toBe(
      'Order <7> & "more" \'x\'',
    );
  });
});
