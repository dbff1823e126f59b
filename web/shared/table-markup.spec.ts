import { parseBody } from './table-markup';

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
