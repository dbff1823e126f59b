/**
 * The `frame-ancestors` sources of the widget frame, from the site's `allowed_domains` (the
 * pages that may embed the widget): `example.com` and `*.example.com` on any port and scheme, an
 * entry with a port on that port only. `app:` entries are mobile apps, not pages. A site with no
 * host entries may be embedded anywhere, as its widget API accepts every origin then.
 */
export function frameAncestors(allowedDomains: string[]): string {
  const hosts = allowedDomains.filter((entry) => !entry.startsWith('app:'));
  if (hosts.length === 0) return '*';
  const sources = hosts.flatMap((entry) => {
    const host = entry.includes(':') ? entry : `${entry}:*`;
    return [`http://${host}`, `https://${host}`];
  });
  return ["'self'", ...sources].join(' ');
}
