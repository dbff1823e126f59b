import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the built browser apps are (`npm run build:web` writes them to `dist/web`), and their
 * entry documents read once. A service built without them (`npm run build` alone) still runs its
 * API; the browser routes then say the apps are not built.
 */
export const WEB_ROOT = path.resolve(__dirname, '..', '..', '..', 'web');

export const webPaths = {
  dashboard: path.join(WEB_ROOT, 'dashboard'),
  dashboardAssets: path.join(WEB_ROOT, 'dashboard', 'assets'),
  widget: path.join(WEB_ROOT, 'widget'),
  widgetAssets: path.join(WEB_ROOT, 'widget', 'assets'),
  loader: path.join(WEB_ROOT, 'widget-loader', 'widget.js'),
};

const cache = new Map<string, string | undefined>();

/** A built file's text, read once (the files change only with a new build and a restart). */
export function builtFile(file: string): string | undefined {
  if (!cache.has(file)) cache.set(file, existsSync(file) ? readFileSync(file, 'utf8') : undefined);
  return cache.get(file);
}

export const NOT_BUILT =
  '<!doctype html><meta charset="utf-8"><title>Not built</title>' +
  '<p>The browser apps are not built. Run <code>npm run build:web</code> (or <code>npm start</code>).</p>';
