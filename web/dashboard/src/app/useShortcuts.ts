import { getHotkeyHandler, type HotkeyItem } from '@mantine/hooks';
import { useLayoutEffect, useRef } from 'react';

const TYPING = ['INPUT', 'TEXTAREA', 'SELECT'];

/**
 * Page-wide keyboard shortcuts (ignored while typing in a field), like Mantine's `useHotkeys`
 * but listening from the layout phase with the handlers of the latest render: a key pressed
 * right after a switch (the next conversation already on screen) reaches the new screen's
 * handlers, never a stale one or none at all.
 */
export function useShortcuts(hotkeys: HotkeyItem[]): void {
  const latest = useRef(hotkeys);
  useLayoutEffect(() => {
    latest.current = hotkeys;
  });
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target;
      if (
        target instanceof HTMLElement &&
        (target.isContentEditable || TYPING.includes(target.tagName))
      ) {
        return;
      }
      getHotkeyHandler(latest.current)(event);
    };
    document.documentElement.addEventListener('keydown', onKeyDown);
    return () => document.documentElement.removeEventListener('keydown', onKeyDown);
  }, []);
}
