import { useEffect, useRef } from 'preact/hooks';
import type { HostPage } from '../features/chat/use-chat';
import { endSession } from './boot';
import { onHost, toHost } from './host';
import type { Identity } from './use-widget-session';

/**
 * What the loader on the host page asks of the frame (open, close, identify, shutdown, the page
 * the visitor is on), and the frame's hello once it listens: the loader then sends what it queued
 * (an `open` clicked before the frame had loaded would otherwise be lost).
 */
export function useHostMessages(handlers: {
  open(): void;
  close(): void;
  identify(who: Identity): void;
  page(page: HostPage): void;
}): void {
  const latestRef = useRef(handlers);
  useEffect(() => {
    latestRef.current = handlers;
  });

  useEffect(
    () =>
      onHost((message) => {
        switch (message.type) {
          case 'open':
            latestRef.current.open();
            break;
          case 'close':
            latestRef.current.close();
            break;
          case 'identify':
            latestRef.current.identify({
              name: message.name,
              email: message.email,
              phone: message.phone,
            });
            break;
          case 'shutdown':
            void endSession().then(() => toHost({ type: 'bye' }));
            break;
          case 'session':
            // The host page's copy of the session: read by the session store as the frame starts.
            break;
          case 'page':
            if (/^https?:\/\//i.test(message.url)) {
              latestRef.current.page({
                url: message.url.slice(0, 2048),
                title: String(message.title ?? '').slice(0, 500),
                referrer: /^https?:\/\//i.test(message.referrer ?? '')
                  ? message.referrer.slice(0, 2048)
                  : '',
              });
            }
            break;
        }
      }),
    [],
  );

  useEffect(() => toHost({ type: 'hello' }), []);
}
