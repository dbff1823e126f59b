import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The page's query string, and an edit that builds on the address as it is now.
 *
 * react-router's functional `setSearchParams` starts from the params of the last
 * render, so two quick edits (two filters chosen before React re-renders, as under
 * load) lose the first. The browser's own address is already updated by then
 * (`BrowserRouter` pushes synchronously), so each edit starts from it instead.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  const edit = useCallback(
    (change: (next: URLSearchParams) => void) => {
      const next = new URLSearchParams(window.location.search);
      change(next);
      setParams(next);
    },
    [setParams],
  );
  /** Sets one parameter, or removes it when the value is empty. */
  const setParam = useCallback(
    (name: string, value: string, alsoRemove: readonly string[] = []) =>
      edit((next) => {
        if (value) next.set(name, value);
        else next.delete(name);
        for (const other of alsoRemove) next.delete(other);
      }),
    [edit],
  );
  return { params, edit, setParam };
}
