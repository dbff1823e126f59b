import { appAllowed, originAllowed } from './allowed-origins';

describe('allowed origins', () => {
  it('accepts every origin while the site lists no host', () => {
    expect(originAllowed([], 'https://anything.example')).toBe(true);
    expect(originAllowed(['app:com.example.shop'], 'https://anything.example')).toBe(true);
  });

  it('matches hosts exactly, and subdomains only through a *. entry', () => {
    const domains = ['shop.example', '*.example.org'];
    expect(originAllowed(domains, 'https://shop.example')).toBe(true);
    expect(originAllowed(domains, 'http://shop.example:8080')).toBe(true);
    expect(originAllowed(domains, 'https://www.shop.example')).toBe(false);
    expect(originAllowed(domains, 'https://evilshop.example')).toBe(false);
    expect(originAllowed(domains, 'https://a.b.example.org')).toBe(true);
    expect(originAllowed(domains, 'https://example.org')).toBe(false);
    expect(originAllowed(domains, 'https://notexample.org')).toBe(false);
    expect(originAllowed(domains, 'null')).toBe(false);
  });

  it('honours a port when the entry names one', () => {
    const domains = ['localhost:3000', '*.example.net:8443', 'shop.example:443'];
    expect(originAllowed(domains, 'http://localhost:3000')).toBe(true);
    expect(originAllowed(domains, 'http://localhost:3001')).toBe(false);
    expect(originAllowed(domains, 'https://a.example.net:8443')).toBe(true);
    expect(originAllowed(domains, 'https://a.example.net')).toBe(false);
    expect(originAllowed(domains, 'https://shop.example')).toBe(true);
    expect(originAllowed(domains, 'http://shop.example')).toBe(false);
  });

  it('lets only listed apps in', () => {
    const domains = ['shop.example', 'app:com.example.shop'];
    expect(appAllowed(domains, 'com.example.shop')).toBe(true);
    expect(appAllowed(domains, 'com.example')).toBe(false);
    expect(appAllowed(domains, 'shop.example')).toBe(false);
    expect(appAllowed([], 'com.example.shop')).toBe(false);
  });
});
