// What the device scripts share: where the bundle puts the service, and starting one process of it (or of a bare
// route) on a free port, its output to a log file, resolved once it answers HTTP. Copied to .device/ beside them.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync } from 'node:fs';
import { createServer } from 'node:net';

export const SVC = '/opt/b/svc';
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () => new Promise((r) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });

/** Starts `node ...args` in the service's folder; `stop()` sends SIGTERM and waits for the exit (10 s at most). */
export async function startProc(args, env) {
  const port = await freePort();
  const log = openSync(mkdtempSync('/tmp/l') + '/log', 'w');
  const p = spawn(process.execPath, args, { cwd: SVC, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env }, stdio: ['ignore', log, log] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) { try { await fetch(base + '/auth/me'); break; } catch { await sleep(100); } }
  // Workers of a primary start one after another: let the last of them listen too.
  await sleep(500);
  const exited = new Promise((r) => p.once('exit', r));
  return { p, base, stop: () => { p.kill('SIGTERM'); return Promise.race([exited, sleep(10_000)]); } };
}
