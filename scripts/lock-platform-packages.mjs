#!/usr/bin/env node
// The registry this project installs from does not serve every platform's prebuilt binary
// (for example @msgpackr-extract/*-darwin-arm64). `npm install` then leaves those optional
// packages out of package-lock.json, and `npm ci` refuses the lock as "out of sync".
// This adds each missing optional platform package to the lock with the os/cpu its name states,
// so `npm ci` knows it does not apply here and skips it. Run it after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'sunos', 'aix'];
const CPU = {
  x64: 'x64',
  arm64: 'arm64',
  arm: 'arm',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
  wasm32: 'wasm32',
};

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[base] || lock.packages[`node_modules/${name}`]) continue;
    const tokens = name.split('/').pop().split('-');
    const os = tokens.find((token) => OS.includes(token));
    const cpu = tokens.map((token) => CPU[token]).find(Boolean);
    if (!os && !cpu) continue;
    lock.packages[`node_modules/${name}`] = {
      version: String(version).replace(/^[\^~]/, ''),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) =>
    a === '' ? -1 : b === '' ? 1 : a.localeCompare(b),
  ),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform-specific optional package(s) to package-lock.json`);
