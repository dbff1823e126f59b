import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The service's version (package.json), for `/health` and the OpenAPI document. */
export const VERSION: string = (
  JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
