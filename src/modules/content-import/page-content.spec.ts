import { readPage } from './page-content';

const PAGE = `<!doctype html><html lang="en"><head><title>Shipping - Acme</title>
<meta name="description" content="How and when we ship.">
<link rel="canonical" href="/help/shipping">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[
 {"@type":"Question","name":"Do you ship abroad?","acceptedAnswer":{"@type":"Answer","text":"<p>Yes, to <b>40</b> countries.</p>"}}]}</script>
</head><body><nav><a href="/">Home</a> <a href="/pricing#plans">Pricing</a> <a href="https://elsewhere.example/x">Out</a>
<a href="/private" rel="nofollow">Private</a></nav>
<main><h1>Shipping</h1>
<p>We ship every order within two working days from our warehouse in Lyon, with tracking by email.
Parcels above 50 euros travel free of charge, the others cost 4.90 euros wherever they go.</p>
<p>Read <a href="returns">our returns policy</a> for what happens after.</p>
<details><summary>Can I change my address?</summary><p>Until the parcel leaves, write to us.</p></details>
<dl><dt>Which carrier?</dt><dd>Colissimo in France,</dd><dd>DHL elsewhere.</dd></dl>
<h2>How long does it take?</h2><p>Two to five days.</p><p>Seven abroad.</p><h2>Other</h2><p>Nothing.</p>
<script>alert(1)</script></main></body></html>`;

describe('readPage', () => {
  const page = readPage(PAGE, new URL('https://acme.example/help/shipping?ref=nav'));

  it('reads the canonical address, the title and the description', () => {
    expect(page.canonical).toBe('https://acme.example/help/shipping');
    expect(page.title).toContain('Shipping');
    expect(page.description).toBe('How and when we ship.');
  });

  it('turns the main content into Markdown with absolute links and no script', () => {
    expect(page.markdown).toContain('We ship every order within two working days');
    expect(page.markdown).toContain('[our returns policy](https://acme.example/help/returns)');
    expect(page.markdown).not.toContain('alert(1)');
    expect(page.markdown).not.toContain('Home');
    expect(page.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lists the links to follow, without fragments and without nofollow ones', () => {
    const links = page.links.map((url) => url.href);
    expect(links).toEqual(
      expect.arrayContaining([
        'https://acme.example/',
        'https://acme.example/pricing',
        'https://elsewhere.example/x',
        'https://acme.example/help/returns',
      ]),
    );
    expect(links).not.toContain('https://acme.example/private');
  });

  it('finds the questions in each of the four forms', () => {
    expect(page.questions).toEqual([
      { question: 'Do you ship abroad?', answer: 'Yes, to 40 countries.' },
      { question: 'Can I change my address?', answer: 'Until the parcel leaves, write to us.' },
      { question: 'Which carrier?', answer: 'Colissimo in France,\nDHL elsewhere.' },
      { question: 'How long does it take?', answer: 'Two to five days.\nSeven abroad.' },
    ]);
  });

  it('keeps no article for a page without main text, and reads robots meta', () => {
    const thin = readPage(
      '<html><head><meta name="robots" content="noindex, nofollow"></head><body><a href="/a">A</a></body></html>',
      new URL('https://acme.example/menu'),
    );
    expect(thin.markdown).toBe('');
    expect(thin.noindex).toBe(true);
    expect(thin.nofollow).toBe(true);
  });
});
