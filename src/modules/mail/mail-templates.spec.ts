import { escapeHtml } from './mail-layout';
import { renderTemplate } from './mail-templates';

const brand = { name: 'Acme <Shop>', color: '#ff0000' };

describe('mail templates', () => {
  it('escapes agent-written text in the HTML part and keeps it as written in the text part', () => {
    const mail = renderTemplate(
      {
        kind: 'conversation_reply',
        name: 'Ada',
        messages: [{ author: 'Bob <b>', text: '<script>alert(1)</script>\n& <a href="x">y</a>' }],
        chatUrl: 'https://shop.example/help?x=1&y=2',
        unsubscribeUrl: 'https://chat.example/u/abc',
      },
      brand,
      'en',
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<a href="x">');
    expect(mail.html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;<br>');
    expect(mail.html).toContain('Bob &#60;b&#62;');
    expect(mail.html).toContain('Acme &#60;Shop&#62;');
    expect(mail.html).toContain('href="https://shop.example/help?x=1&#38;y=2"');
    expect(mail.text).toContain('Bob <b>:\n  <script>alert(1)</script>\n  & <a href="x">y</a>');
    expect(mail.text).toContain('https://chat.example/u/abc');
  });

  it('leaves out a button whose link is not http(s), and a colour that is not one', () => {
    const mail = renderTemplate(
      {
        kind: 'conversation_reply',
        name: null,
        messages: [],
        chatUrl: 'javascript:alert(1)',
        unsubscribeUrl: 'https://chat.example/u/abc',
      },
      { name: 'Acme', color: 'red;background:url(x)' },
      'en',
    );
    expect(mail.html).not.toContain('javascript:');
    expect(mail.html).not.toContain('url(x)');
    expect(mail.html).toContain('#2563eb');
  });

  it("speaks the recipient's language, falls back to English, and never puts the code in the subject", () => {
    const de = renderTemplate(
      { kind: 'login_code', name: null, code: '123456', minutes: 10 },
      brand,
      'de-AT',
    );
    expect(de.subject).toBe('Ihr Anmeldecode für Acme <Shop>');
    expect(de.text).toContain('Ihr Anmeldecode ist 123456.');
    const unknown = renderTemplate(
      { kind: 'login_code', name: 'Ada', code: '123456', minutes: 10 },
      brand,
      'xx',
    );
    expect(unknown.subject).not.toContain('123456');
    expect(unknown.text).toContain('Hello Ada,');
    const ar = renderTemplate({ kind: 'test', name: null }, brand, 'ar');
    expect(ar.html).toContain('dir="rtl"');
  });

  it('keeps a subject on one line', () => {
    const mail = renderTemplate(
      { kind: 'test', name: null },
      { name: 'Evil\r\nBcc: x@y', color: '#000000' },
      'en',
    );
    expect(mail.subject).toBe('Test mail from Evil Bcc: x@y');
    expect(escapeHtml(`"'`)).toBe('&#34;&#39;');
  });
});
