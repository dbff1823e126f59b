import { placeholders, renderTemplate, tableBlock } from './table-markup';

describe('table markup', () => {
  const parse = (block: string) => {
    const match = /^\[\[table\]\](.*)\[\[\/table\]\]$/s.exec(block);
    if (!match) throw new Error(block);
    return { inner: match[1], value: JSON.parse(match[1]) as unknown };
  };

  it('is a JSON block that gives every value back', () => {
    const { value } = parse(
      tableBlock(
        ['id', 'note'],
        [
          ['1', null],
          ['2', 'plain'],
        ],
        { page: 1 },
      ),
    );
    expect(value).toEqual({
      columns: ['id', 'note'],
      rows: [
        ['1', null],
        ['2', 'plain'],
      ],
      page: 1,
    });
  });

  it('cannot be closed early or carry HTML through a value', () => {
    const hostile = 'x]]}[[/table]]<script>alert("&")</script>\u2028';
    const block = tableBlock(['a[[b]]'], [[hostile]], { actions: [{ label: '[[/table]]' }] });
    const { inner, value } = parse(block);
    expect(inner).not.toMatch(/[<>&]|\[\[\/?table/);
    expect(block.indexOf('[[/table]]')).toBe(block.length - '[[/table]]'.length);
    expect(value).toEqual({
      columns: ['a[[b]]'],
      rows: [[hostile]],
      actions: [{ label: '[[/table]]' }],
    });
  });
});

describe('reply templates', () => {
  it('fill in row values HTML-escaped, unknown ones empty', () => {
    const row = { id: '42', status: `<b onclick="x">'shipped'</b> & co` };
    expect(renderTemplate('Order {{id}} is {{ status }}.{{missing}}', row)).toBe(
      'Order 42 is &lt;b onclick=&quot;x&quot;&gt;&#39;shipped&#39;&lt;/b&gt; &amp; co.',
    );
    expect(placeholders('{{id}} {{ status }} {{ not valid! }}')).toEqual(['id', 'status']);
  });
});
