/**
 * Writes the OpenAPI document the service serves at /docs/json to the file named on the command line (default
 * openapi.json), so that tools such as `redocly lint` check exactly what clients get. Starts the real service on an
 * ephemeral loopback port with the in-memory store and a throw-away data directory, and stops it again.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startService } from '../src/main.js';

const target = resolve(process.argv[2] ?? 'openapi.json');
const dataDir = mkdtempSync(join(tmpdir(), 'openapi-'));
try {
  const service = await startService({ ...process.env, NODE_ENV: 'test', STORAGE: 'memory', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  try {
    const response = await fetch(new URL('/docs/json', service.url));
    if (!response.ok) throw new Error(`GET /docs/json answered ${response.status}`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `${JSON.stringify(await response.json(), null, 2)}\n`);
  } finally {
    await service.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`openapi: wrote ${target}\n`);
