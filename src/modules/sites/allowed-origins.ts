/**
 * The site's `allowed_domains` (DESIGN section 7): host entries (`example.com`, `*.example.com`
 * for subdomains) say which pages may embed the widget, `app:<app id>` entries which mobile apps
 * may. Entries are lowercase host names or app ids (validated when saved).
 */
const APP = 'app:';

/**
 * Whether a browser `Origin` may call the widget API. A site without host entries accepts every
 * origin (a new site works before its domains are set); `Origin: null` (sandboxed frames, files)
 * only passes then too.
 */
export function originAllowed(allowedDomains: string[], origin: string): boolean {
  const hosts = allowedDomains.filter((entry) => !entry.startsWith(APP));
  if (hosts.length === 0) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  return hosts.some((entry) => {
    // An entry may name a port (`localhost:3000`); without one, any port of the host matches.
    const [pattern, entryPort] = entry.toLowerCase().split(':');
    if (entryPort !== undefined && entryPort !== port) return false;
    if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
    return host === pattern;
  });
}

/**
 * Whether a browser `Origin` is the service's own: the chat frame is served by the service, so
 * its calls carry the service's origin. What may embed that frame is `frame-ancestors`' job.
 */
export function sameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** Whether a mobile app may open widget sessions: only apps listed as `app:<app id>`. */
export function appAllowed(allowedDomains: string[], appId: string): boolean {
  return allowedDomains.some((entry) => entry.startsWith(APP) && entry.slice(APP.length) === appId);
}
