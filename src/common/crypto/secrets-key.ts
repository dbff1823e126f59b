import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Environment } from '../../config/environment';
import { MasterKey, parseKey } from './secret-box';

export const KEY_FILE = 'secrets.key';

/**
 * The master keys: SECRETS_KEY (required in production) or, elsewhere, the key generated into
 * `DATA_DIR/secrets.key` (mode 0600) on first start; and SECRETS_KEY_PREVIOUS, the keys being
 * rotated away from. Never from the database.
 */
export function loadMasterKeys(
  env: Pick<Environment, 'SECRETS_KEY' | 'SECRETS_KEY_PREVIOUS'>,
  dataDir: string,
): { current: MasterKey; previous: MasterKey[] } {
  const current = new MasterKey(
    env.SECRETS_KEY ? parseKey(env.SECRETS_KEY) : keyFile(path.join(dataDir, KEY_FILE)),
  );
  const previous = (env.SECRETS_KEY_PREVIOUS ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '')
    .map((value) => new MasterKey(parseKey(value)))
    .filter((key) => key.id !== current.id);
  return { current, previous };
}

/**
 * The key in `file`, written first if there is none. Several processes may start at once: the
 * key is written to a private temporary file and linked into place, so a process reads either
 * no file or a whole one, and only the first link wins.
 */
function keyFile(file: string): Buffer {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(temporary);
    }
  }
  const stat = fs.statSync(file);
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  return parseKey(fs.readFileSync(file, 'utf8').trim());
}
