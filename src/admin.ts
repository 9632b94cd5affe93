import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { loadConfig } from './infrastructure/config/config.js';
import { compose } from './infrastructure/container/composition.js';
import { CAPABILITIES } from './capabilities/index.js';

/** Every command of the command line: those the capabilities declare (src/capabilities/index.ts). */
const COMMANDS = CAPABILITIES.flatMap((capability) => capability.commands.map((command) => ({ capability, command })));

const USAGE = ['usage: npm run admin -- <command>', ...COMMANDS.map(({ command }) => `  ${command.usage}`)].join('\n');

export interface AdminIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

const STD_IO: AdminIo = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };

/**
 * The admin command line (`npm run admin -- ...`): the second composition root beside main.ts. It opens the configured
 * store as the service does (the embedded store is shared between processes, so it works while the service runs; on
 * MongoDB, from anywhere that reaches it), runs one use case, prints JSON on stdout and closes. Returns the exit code:
 * 0 done, 1 refused or failed (one line on stderr), 2 a usage error.
 */
export async function runAdmin(args: readonly string[], env: Record<string, string | undefined> = process.env, io: AdminIo = STD_IO): Promise<number> {
  const [name, ...rest] = args;
  const chosen = COMMANDS.find(({ command }) => command.name === name);
  if (!chosen) {
    io.err(USAGE);
    return 2;
  }
  const config = loadConfig(env, CAPABILITIES);
  // Warnings (a generated key outside production) on stderr, so that stdout holds the JSON alone.
  const composition = await compose(config, pino({ level: config.logLevel === 'silent' ? 'silent' : 'warn' }, pino.destination(2)), {}, CAPABILITIES);
  const metadata = { requestId: `cli-${randomUUID()}`, clientIp: null, userAgent: null };
  try {
    const { out, notice } = await chosen.command.run(composition.useCases, rest, metadata);
    io.out(JSON.stringify(out));
    if (notice !== undefined) io.err(notice);
    return 0;
  } catch (error) {
    const issues = (error as { issues?: readonly { field: string | null; message: string }[] }).issues ?? [];
    io.err(`admin ${name}: ${error instanceof Error ? error.message : String(error)}${issues.map((issue) => `; ${issue.field ?? 'input'} ${issue.message}`).join('')}`);
    return 1;
  } finally {
    await composition.storage.close();
  }
}

// Run as a program (its real path: the module's URL has symbolic links resolved), not when imported by a test.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  runAdmin(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`admin failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
