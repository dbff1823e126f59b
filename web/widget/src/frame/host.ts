import type { FrameToHost, HostToFrame } from '../shared/protocol';

const params = new URLSearchParams(location.search);

/** The frame's address carries the widget key, the host page's origin and an optional locale. */
export const frameParams = {
  widgetKey: params.get('widget_key') ?? '',
  locale: params.get('locale') ?? undefined,
  hostOrigin: hostOrigin(params.get('origin')),
};

/**
 * The host page's origin: the one the loader named, when the browser's own record of the
 * embedding page (`ancestorOrigins`, where there is one) agrees. Messages go only there.
 */
function hostOrigin(claimed: string | null): string | undefined {
  if (window.parent === window || !claimed) return undefined;
  const actual = location.ancestorOrigins?.[0];
  if (actual !== undefined && actual !== claimed) return undefined;
  return claimed;
}

export function toHost(message: FrameToHost): void {
  if (frameParams.hostOrigin) window.parent.postMessage(message, frameParams.hostOrigin);
}

/** Listens to the loader: only the parent window, only from the host page's origin. */
export function onHost(handler: (message: HostToFrame) => void): () => void {
  const listener = (event: MessageEvent) => {
    if (event.source !== window.parent || event.origin !== frameParams.hostOrigin) return;
    const data = event.data as HostToFrame | undefined;
    if (data && typeof data === 'object' && typeof data.type === 'string') handler(data);
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}
