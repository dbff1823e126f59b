import { frameAncestors } from './frame-ancestors';

describe('frameAncestors', () => {
  it('allows any page when the site names no host', () => {
    expect(frameAncestors([])).toBe('*');
    expect(frameAncestors(['app:com.example.shop'])).toBe('*');
  });

  it('lists each host on any port, and a host with a port on that port only', () => {
    expect(frameAncestors(['example.com', '*.shop.test', 'localhost:8080'])).toBe(
      "'self' http://example.com:* https://example.com:* http://*.shop.test:* " +
        'https://*.shop.test:* http://localhost:8080 https://localhost:8080',
    );
  });
});
