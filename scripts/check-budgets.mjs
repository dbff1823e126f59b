#!/usr/bin/env node
// Budgets are code (STYLE 18): the web build fails when the loader, the open widget or the
// dashboard's first load outgrows its gzipped budget (issues 18 and 19). First load = the entry
// chunk and every chunk it imports statically; lazy chunks (dynamic imports) are not counted.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const WEB = path.resolve(import.meta.dirname, '..', 'dist', 'web');
const KB = 1024;
const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

function firstLoad(app, entry) {
  const manifest = JSON.parse(readFileSync(path.join(WEB, app, '.vite', 'manifest.json'), 'utf8'));
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  visit(entry);
  return [...seen].reduce((sum, key) => sum + gz(path.join(WEB, app, manifest[key].file)), 0);
}

const budgets = [
  ['widget loader (widget.js)', () => gz(path.join(WEB, 'widget-loader', 'widget.js')), 4 * KB],
  ['open widget, first load', () => firstLoad('widget', 'frame.html'), 60 * KB],
  ['dashboard, first load', () => firstLoad('dashboard', 'index.html'), 250 * KB],
];

let failed = false;
for (const [name, measure, budget] of budgets) {
  const size = measure();
  const line = `${name}: ${(size / KB).toFixed(1)} KiB gzipped (budget ${budget / KB} KiB)`;
  if (size > budget) {
    failed = true;
    console.error(`OVER BUDGET ${line}`);
  } else if (!process.env.npm_config_loglevel?.includes('silent')) {
    console.log(line);
  }
}
if (failed || !existsSync(WEB)) process.exit(1);
