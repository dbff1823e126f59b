import { toHost } from './host';

// The visitor's identity lives in the frame's localStorage (the service's origin, not the host
// page's), keyed by widget key, so the chat continues across page loads and tabs. A browser that
// refuses storage to third-party frames gets the host page to keep a copy (the loader hands it
// back in the frame address's fragment).
const key = (widgetKey: string, name: string) => `support-chat:${widgetKey}:${name}`;

const hostCopy: Record<string, string> = (() => {
  try {
    const parsed: unknown = JSON.parse(decodeURIComponent(location.hash.slice(1)) || '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
})();

function read(widgetKey: string, name: string): string | null {
  try {
    const own = localStorage.getItem(key(widgetKey, name));
    if (own !== null) return own;
  } catch {
    // Refused: the host page's copy below.
  }
  return typeof hostCopy[name] === 'string' ? hostCopy[name] : null;
}

function write(widgetKey: string, name: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key(widgetKey, name));
    else localStorage.setItem(key(widgetKey, name), value);
    return;
  } catch {
    // Refused: the host page keeps it.
  }
  if (value === null) delete hostCopy[name];
  else hostCopy[name] = value;
  toHost({ type: 'store', values: { [name]: value } });
}

export const session = {
  visitorUid: (widgetKey: string) => read(widgetKey, 'visitor_uid') ?? undefined,
  saveVisitorUid: (widgetKey: string, uid: string) => write(widgetKey, 'visitor_uid', uid),
  readUpTo: (widgetKey: string) => Number(read(widgetKey, 'read_up_to') ?? 0) || 0,
  saveReadUpTo: (widgetKey: string, id: number) => write(widgetKey, 'read_up_to', String(id)),
  firstMessageAt: (widgetKey: string) => Number(read(widgetKey, 'chat_started_at') ?? 0) || 0,
  saveFirstMessageAt: (widgetKey: string, at: number) =>
    write(widgetKey, 'chat_started_at', String(at)),
  forget(widgetKey: string): void {
    for (const name of ['visitor_uid', 'read_up_to', 'chat_started_at'])
      write(widgetKey, name, null);
  },
};
