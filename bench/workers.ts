import cluster from 'node:cluster';

/**
 * Runs `serve` in WORKERS processes on one port (node:cluster), as the service runs with WORKERS above 1, or in this
 * process when WORKERS is 1 or unset: the floors (bare-server.ts, featured-server.ts) run with as many processes as
 * the service they are measured against. The primary passes SIGTERM to its workers and exits.
 */
export async function servedBy(serve: () => Promise<void>): Promise<void> {
  const workers = Number(process.env['WORKERS'] ?? 1);
  if (!cluster.isPrimary || !(workers > 1)) return serve();
  for (let i = 0; i < workers; i += 1) cluster.fork();
  process.once('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    process.exit(0);
  });
}
