import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  await globalThis.__TEST_PG__?.stop();
  const dataDir = process.env.TEST_PG_DATA_DIR;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
