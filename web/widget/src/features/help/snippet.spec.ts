import { snippetParts } from './snippet';

describe('the Help view snippet', () => {
  it('splits the server snippet into text and marked parts, unescaping the text', () => {
    expect(snippetParts('Reset your <mark>password</mark> &lt;b&gt; &amp; more')).toEqual([
      { text: 'Reset your ', mark: false },
      { text: 'password', mark: true },
      { text: ' <b> & more', mark: false },
    ]);
  });

  it('never turns escaped markup into markup', () => {
    const parts = snippetParts('&lt;mark&gt;x&lt;/mark&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(parts).toEqual([{ text: '<mark>x</mark><img src=x onerror=alert(1)>', mark: false }]);
  });
});
