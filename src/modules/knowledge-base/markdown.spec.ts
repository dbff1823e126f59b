import { markdownToText, renderMarkdown } from './markdown';

describe('article Markdown', () => {
  it('keeps raw HTML as text and neutralises script, data and javascript links', () => {
    const html = renderMarkdown(
      [
        '# Hi <script>alert(1)</script>',
        '',
        '[x](javascript:alert(1)) [y](JAVASCRIPT:alert(1)) [tab](java\tscript:alert(1))',
        '[d](data:text/html;base64,PHNjcmlwdD4=) ![i](data:image/png;base64,AAA)',
        '[ok](https://example.com/a) see https://b.example.com and [rel](/foo)',
      ].join('\n'),
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/href="\s*(javascript|data):/i);
    expect(html).not.toMatch(/src="data:/i);
    expect(html).toContain('<a href="https://example.com/a" rel="nofollow noopener">ok</a>');
    expect(html).toContain('<a href="https://b.example.com" rel="nofollow noopener">');
    expect(html).toContain('<a href="/foo" rel="nofollow noopener">rel</a>');
  });

  it('gives the plain words for search', () => {
    expect(markdownToText('# Title\n\nSome **bold** & <b>text</b>.')).toBe(
      'Title\nSome bold & <b>text</b>.',
    );
  });
});
