import { runAdmin } from '../../src/admin.js';
import { runningStorages } from './test-service.js';

/** Runs `npm run admin -- <args>` in this process against a service's DATA_DIR (its store is shared between processes); its stdout lines and exit code. */
export async function admin(dataDir: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ readonly code: number; readonly out: string[]; readonly err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
  const code = await runAdmin(args, { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...env }, io, runningStorages.get(dataDir));
  return { code, out, err };
}

/** A new API key with these scopes (comma-separated), made by the admin command line on the service's store. */
export async function apiKeyFor(dataDir: string, scopes: string, env: Record<string, string> = {}): Promise<{ readonly id: string; readonly key: string }> {
  const made = await admin(dataDir, ['create-key', '--scopes', scopes, '--name', 'test'], env);
  if (made.code !== 0) throw new Error(`admin create-key: ${made.err.join(' ')}`);
  return JSON.parse(made.out[0] ?? '{}') as { id: string; key: string };
}
