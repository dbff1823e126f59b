// The loader a host page includes (`/widget.js`, budget 4 KiB gzipped). It draws the launcher in a
// shadow root (the host page's CSS cannot reach it), opens the chat frame of the service's origin
// and relays the `SupportChat(...)` API to it over postMessage, checking origins both ways.
// Nothing here may throw into the host page: every failure ends in a quiet removal. Before it
// draws anything it asks the service whether this page may show the widget (the site's allowed
// domains): on a page that may not, it draws nothing and says why once in the console.
import { LOADER_STYLE } from './style';
import type { FrameToHost, HostToFrame } from '../shared/protocol';

type Handler = (data?: unknown) => void;
interface Api {
  (command: string, ...args: unknown[]): void;
  q?: ArrayLike<unknown>[];
  loaded?: boolean;
}

const EVENTS = ['ready', 'open', 'close', 'message', 'unread'];
// The frame has this long to say hello; after that the widget removes itself quietly.
const HELLO_TIMEOUT_MS = 20_000;
const CHAT_ICON =
  '<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>';
const CLOSE_ICON =
  '<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round"><path d="M6 6l12 12M18 6L6 18"/></svg>';

/**
 * Whether this page may show the widget: `/api/widget/config` answers the page's origin as the
 * widget API does (403 outside the site's allowed domains, where the frame would be refused too).
 * A refusal is said once in the console; an unreachable service stays quiet (the browser says it).
 */
function mayShow(service: string, key: string): Promise<boolean> {
  return fetch(`${service}/api/widget/config?widget_key=${key}`).then(
    async (res) => {
      if (res.ok) return true;
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      console.warn(
        `Support chat is not shown on ${location.origin}: ${body.message ?? res.status}`,
      );
      return false;
    },
    () => false,
  );
}

function boot(script: HTMLScriptElement, key: string, service: string): void {
  const win = window as unknown as { SupportChat?: Api };

  const handlers: Record<string, Handler[]> = {};
  let readyData: { visitor_id: number } | undefined;
  let open = false;
  let drawnOpen = false;
  let hello = false;
  let frame: HTMLIFrameElement | undefined;
  let helloTimer: ReturnType<typeof setTimeout> | undefined;
  const pending: HostToFrame[] = [];
  const labels = { open: 'Open chat', close: 'Close chat', unread: '{count} unread' };
  const storeKey = `support-chat:${key}`;
  let stored: Record<string, string> = {};
  try {
    stored = JSON.parse(localStorage.getItem(storeKey) ?? '{}') as Record<string, string>;
  } catch {
    // No storage on the host page either: the session lasts this page.
  }

  const hostEl = document.createElement('div');
  hostEl.setAttribute('data-support-chat', '');
  const root = hostEl.attachShadow({ mode: 'open' });
  root.innerHTML = `<style>${LOADER_STYLE}</style><div class="w"><div class="f" hidden></div><button type="button" aria-expanded="false" aria-label="Open chat"><span class="i">${CHAT_ICON}</span><span class="l"></span></button><span class="b" role="status"></span></div>`;
  const wrap = root.querySelector('.w') as HTMLElement;
  const box = root.querySelector('.f') as HTMLElement;
  const button = root.querySelector('button') as HTMLButtonElement;
  const icon = root.querySelector('.i') as HTMLElement;
  const text = root.querySelector('.l') as HTMLElement;
  const badge = root.querySelector('.b') as HTMLElement;

  const emit = (event: string, data?: unknown) => {
    for (const fn of handlers[event] ?? []) {
      try {
        fn(data);
      } catch (error) {
        setTimeout(() => {
          throw error;
        });
      }
    }
  };

  const post = (message: HostToFrame) => {
    if (hello && frame?.contentWindow) frame.contentWindow.postMessage(message, service);
    else pending.push(message);
  };

  const ensureFrame = () => {
    if (frame) return;
    frame = document.createElement('iframe');
    frame.title = 'Chat';
    frame.allow = 'clipboard-write';
    const params = new URLSearchParams({ widget_key: key, origin: location.origin });
    const locale = script.getAttribute('data-locale');
    if (locale) params.set('locale', locale);
    frame.src = `${service}/widget/frame.html?${params.toString()}`;
    box.appendChild(frame);
    helloTimer = setTimeout(() => {
      if (!hello) remove();
    }, HELLO_TIMEOUT_MS);
  };

  const render = () => {
    wrap.classList.toggle('open', open);
    box.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    // The visible label starts the accessible name (WCAG 2.5.3, label in name).
    const shown = !open && text.textContent ? `${text.textContent} (${labels.open})` : '';
    button.setAttribute('aria-label', shown || (open ? labels.close : labels.open));
    // Redrawn only when it changes: a click whose press and release straddle a redraw of the
    // node under the pointer is lost (the frame's settings arrive, and re-render, just as a
    // visitor may click). The icon and the label take no pointer events either (style.ts).
    if (drawnOpen !== open) icon.innerHTML = open ? CLOSE_ICON : CHAT_ICON;
    drawnOpen = open;
  };

  const setOpen = (next: boolean, fromFrame = false) => {
    if (next === open) return;
    open = next;
    if (open) ensureFrame();
    render();
    if (!fromFrame) post({ type: open ? 'open' : 'close' });
    // Focus moves into the chat (the frame then focuses its message box) and back on close. A
    // frame still loading holds a blank page that the browser is about to swap for the service's
    // (another process): focus given to it then can stay behind with the blank page, the frame
    // showing its message box focused while keys go nowhere. It moves in once the frame says hello.
    if (open && hello) frame?.focus();
    if (!open && fromFrame) button.focus();
    emit(open ? 'open' : 'close');
  };

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== service || !frame || event.source !== frame.contentWindow) return;
    const data = event.data as FrameToHost | undefined;
    if (!data || typeof data !== 'object') return;
    switch (data.type) {
      case 'hello':
        hello = true;
        clearTimeout(helloTimer);
        // The host page's copy of the frame's session (browsers that refuse the frame storage),
        // only to the frame this page made, never in its address.
        post({ type: 'session', values: stored });
        for (const message of pending.splice(0)) post(message);
        // Opened before the frame had loaded: the focus moves in now that there is a page.
        if (open) frame.focus();
        break;
      case 'ready':
        readyData = { visitor_id: data.visitor_id };
        emit('ready', readyData);
        break;
      case 'config':
        button.style.setProperty('--c', data.color);
        button.style.setProperty('--oc', data.text_color);
        wrap.classList.toggle('left', data.position === 'left');
        text.textContent = data.launcher_label;
        Object.assign(labels, data.labels);
        render();
        break;
      case 'unread':
        badge.textContent = data.count > 0 ? String(data.count) : '';
        badge.setAttribute(
          'aria-label',
          data.count > 0 ? labels.unread.replace('{count}', String(data.count)) : '',
        );
        emit('unread', { count: data.count });
        break;
      case 'message':
        emit('message', data.message);
        break;
      case 'close':
        setOpen(false, true);
        break;
      case 'store':
        for (const [name, value] of Object.entries(data.values)) {
          if (value === null) delete stored[name];
          else stored[name] = value;
        }
        try {
          localStorage.setItem(storeKey, JSON.stringify(stored));
        } catch {
          // Kept for this page only.
        }
        break;
      case 'bye':
        try {
          localStorage.removeItem(storeKey);
        } catch {
          // Nothing was kept.
        }
        remove();
        break;
    }
  };

  const remove = () => {
    window.removeEventListener('message', onMessage);
    clearTimeout(helloTimer);
    hostEl.remove();
    frame = undefined;
  };

  const api: Api = (command, ...args) => {
    switch (command) {
      case 'open':
      case 'close':
        setOpen(command === 'open');
        break;
      case 'toggle':
        setOpen(!open);
        break;
      case 'shutdown':
        // The frame ends the session on the server, then says bye; removed anyway after 5 s.
        if (frame && hello) {
          post({ type: 'shutdown' });
          setTimeout(remove, 5000);
        } else remove();
        delete win.SupportChat;
        break;
      case 'identify': {
        const person = (args[0] ?? {}) as Record<string, unknown>;
        const pick = (name: string) =>
          typeof person[name] === 'string' ? person[name] : undefined;
        post({ type: 'identify', name: pick('name'), email: pick('email'), phone: pick('phone') });
        ensureFrame();
        break;
      }
      case 'on': {
        const [event, fn] = args as [string, Handler];
        if (!EVENTS.includes(event) || typeof fn !== 'function') return;
        (handlers[event] ??= []).push(fn);
        if (event === 'ready' && readyData) fn(readyData);
        break;
      }
    }
  };
  api.loaded = true;

  const queued = win.SupportChat?.q ?? [];
  win.SupportChat = api;
  window.addEventListener('message', onMessage);
  button.addEventListener('click', () => setOpen(!open));
  document.body.appendChild(hostEl);
  for (const args of queued) api(...(Array.from(args) as [string, ...unknown[]]));
  // The page the visitor is on, for the agents: now, and whenever its address or title changes
  // (single-page sites move without loading; a cheap look once a second catches every way).
  let seen = '';
  const page = () => {
    const now = location.href + '\n' + document.title;
    if (now === seen) return;
    seen = now;
    post({ type: 'page', url: location.href, title: document.title, referrer: document.referrer });
  };
  page();
  setInterval(page, 1000);
  // The frame (session, unread count, `ready`) loads when the host page is idle, never before it.
  const idle = (window as { requestIdleCallback?: (fn: () => void) => void }).requestIdleCallback;
  if (idle) idle(ensureFrame);
  else setTimeout(ensureFrame, 500);
}

try {
  const script =
    (document.currentScript as HTMLScriptElement | null) ??
    document.querySelector<HTMLScriptElement>('script[data-widget-key]');
  const key = script?.getAttribute('data-widget-key') ?? '';
  const loaded = () => (window as unknown as { SupportChat?: Api }).SupportChat?.loaded;
  if (script && !loaded() && /^wk_\w+$/.test(key)) {
    const service = new URL(script.src, location.href).origin;
    void mayShow(service, key).then((ok) => {
      // Checked again: a second copy of the snippet may have started meanwhile.
      if (!ok || loaded()) return;
      const start = () => {
        try {
          boot(script, key, service);
        } catch {
          // As below: the host page is never disturbed.
        }
      };
      if (document.body) start();
      else document.addEventListener('DOMContentLoaded', start);
    });
  }
} catch {
  // A widget that cannot start stays away; the host page is never disturbed.
}
