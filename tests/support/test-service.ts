import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { type RunningService, type StartOptions, startService } from '../../src/main.js';
import './observed-statuses.js';

/** argon2 itself, with parameters cheap enough for a test suite; the defaults are exercised separately. */
export const FAST_ARGON2 = { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', ARGON2_PARALLELISM: '1' };

export const tempDir = (label = 'accounts'): string => mkdtempSync(join(tmpdir(), `${label}-`));

/**
 * The stores of the services running in this process, by data directory: the in-process command line uses the
 * running service's (LMDB must not be opened twice in one process: two handles on one file deadlock their write locks,
 * which once hung a test run).
 */
export const runningStorages = new Map<string, RunningService['storage']>();

export interface TestService extends RunningService {
  readonly dataDir: string;
  /** Closes the service and deletes its data directory. */
  dispose(): Promise<void>;
}

/** Starts the real service (real HTTP socket on an ephemeral port, real argon2, real JWT) on a fresh data dir. */
export async function startTestService(env: Record<string, string> = {}, options: StartOptions & { logger?: Logger } = {}): Promise<TestService> {
  const dataDir = env['DATA_DIR'] ?? tempDir();
  const service = await startService(
    { NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...FAST_ARGON2, ...env },
    options,
  );
  runningStorages.set(dataDir, service.storage);
  return {
    ...service,
    dataDir,
    dispose: async () => {
      runningStorages.delete(dataDir);
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
