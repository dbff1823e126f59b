import { frameParams, onHost, toHost } from './host';

// The visitor's session lives in the frame's localStorage (the service's origin, not the host
// page's), keyed by widget key, so the chat continues across page loads and tabs. What is kept is
// the signed session token, which the server checks, never a bare visitor UID. A browser that
// refuses storage to third-party frames gets the host page to keep a copy: it comes back only by
// postMessage from the verified parent origin after the frame's hello, never from the frame's
// address (a link could plant someone else's identity there), and never without a parent.
const key = (widgetKey: string, name: string) => `support-chat:${widgetKey}:${name}`;
const NAMES = ['session_token', 'read_up_to', 'chat_started_at', 'email_asked'];
/** How long a framed widget waits for the host page's copy before starting without it. */
const HOST_COPY_WAIT_MS = 1500;

const hostCopy: Record<string, string> = {};
let hostCopyArrived: () => void = () => undefined;
const hostCopyLoaded = new Promise<void>((resolve) => {
  hostCopyArrived = resolve;
});
if (frameParams.hostOrigin) {
  // Registered as the module loads, before the frame's hello: the loader answers it at once.
  onHost((message) => {
    if (message.type !== 'session') return;
    for (const name of NAMES) {
      const value = message.values[name];
      if (typeof value === 'string') hostCopy[name] = value;
    }
    hostCopyArrived();
  });
} else {
  hostCopyArrived();
}

function ownStorage(): Storage | undefined {
  try {
    localStorage.getItem('support-chat');
    return localStorage;
  } catch {
    return undefined;
  }
}

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
  /**
   * Resolves once the stored session can be read: at once with the frame's own storage or
   * without a host page, else when the host page's copy came (or after a short wait).
   */
  ready(): Promise<void> {
    if (ownStorage()) return Promise.resolve();
    return Promise.race([
      hostCopyLoaded,
      new Promise<void>((resolve) => setTimeout(resolve, HOST_COPY_WAIT_MS)),
    ]);
  },
  token: (widgetKey: string) => read(widgetKey, 'session_token') ?? undefined,
  saveToken: (widgetKey: string, token: string) => write(widgetKey, 'session_token', token),
  readUpTo: (widgetKey: string) => Number(read(widgetKey, 'read_up_to') ?? 0) || 0,
  saveReadUpTo: (widgetKey: string, id: number) => write(widgetKey, 'read_up_to', String(id)),
  firstMessageAt: (widgetKey: string) => Number(read(widgetKey, 'chat_started_at') ?? 0) || 0,
  saveFirstMessageAt: (widgetKey: string, at: number) =>
    write(widgetKey, 'chat_started_at', String(at)),
  /** Whether the visitor was asked for an email address already (asked once). */
  emailAsked: (widgetKey: string) => read(widgetKey, 'email_asked') === '1',
  saveEmailAsked: (widgetKey: string) => write(widgetKey, 'email_asked', '1'),
  forget(widgetKey: string): void {
    for (const name of NAMES) write(widgetKey, name, null);
    // A UID kept by earlier versions of the widget is no longer read: drop it too.
    try {
      localStorage.removeItem(key(widgetKey, 'visitor_uid'));
    } catch {
      // Nothing was kept.
    }
  },
};
