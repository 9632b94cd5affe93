/**
 * `npm run store:copy -- --from <store> --to <store>`: copies every record of every table the service declares (the
 * core's and every capability's, src/capabilities/index.ts), with its key and version, from one store into another
 * that holds none: the embedded LMDB store of a DATA_DIR (`lmdb:DIR`) or a PostgreSQL database (`postgres://…`,
 * `postgresql://…`, or `postgres:` before either), in either direction (docs/store-copy.md). Values are copied as
 * stored, personal data still sealed: no key is needed and nothing is opened. An LMDB store is held exclusively for
 * the run (as `npm run store:compact` holds it); the copy into PostgreSQL is one transaction, into LMDB a new file put
 * in place once complete: all or nothing either way. Prints one line; on any error one line on stderr and exit 1.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { CAPABILITIES } from '../src/capabilities/index.js';
import { lmdbRowSink, lmdbRowSource } from '../src/infrastructure/lmdb/lmdb-rows.js';
import { maskedUrl, postgresRowSink, postgresRowSource } from '../src/infrastructure/postgres/postgres-rows.js';
import { schemaOf } from '../src/infrastructure/storage/ownership.js';
import { type CopySummary, type RowSink, type RowSource, copyRows } from '../src/infrastructure/storage/store-copy.js';

/** A store named on the command line: its technology and where it is. */
type StoreName = { readonly kind: 'lmdb'; readonly dir: string } | { readonly kind: 'postgres'; readonly url: string };

const USAGE = 'lmdb:DIR (a DATA_DIR) or postgres://user:password@host:port/database';

/** Reads `lmdb:DIR`, `postgres://…`, `postgresql://…` or `postgres:<either>`; throws, naming no password, for anything else. */
export function storeNamed(text: string): StoreName {
  if (text.startsWith('lmdb:') && text.length > 'lmdb:'.length) return { kind: 'lmdb', dir: resolve(text.slice('lmdb:'.length)) };
  const url = /^postgres(ql)?:(?!\/\/)/.test(text) ? text.replace(/^postgres(ql)?:/, '') : text;
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  if (/^mongodb(\+srv)?:/.test(text)) throw new Error('a MongoDB store cannot be copied by store:copy yet: it copies lmdb:DIR and postgres:// stores');
  throw new Error(`${maskedUrl(text)} names no store: use ${USAGE}`);
}

const sourceOf = (name: StoreName): RowSource => (name.kind === 'lmdb' ? lmdbRowSource(name.dir) : postgresRowSource(name.url));
const sinkOf = (name: StoreName): RowSink => (name.kind === 'lmdb' ? lmdbRowSink(name.dir) : postgresRowSink(name.url));
const shown = (name: StoreName): string => (name.kind === 'lmdb' ? `lmdb:${name.dir}` : maskedUrl(name.url));

export interface CopyReport extends CopySummary {
  /** The one line the command prints (no password). */
  readonly line: string;
}

/** Copies the store `from` names into the empty store `to` names (each as `storeNamed` reads it); rejects, naming no password. */
export async function copyStore(from: string, to: string): Promise<CopyReport> {
  const [source, target] = [storeNamed(from), storeNamed(to)];
  if (shown(source) === shown(target)) throw new Error(`the source and the target are the same store (${shown(source)})`);
  const summary = await copyRows(sourceOf(source), sinkOf(target), schemaOf(CAPABILITIES).tables);
  const line = `copied ${summary.records} records (${summary.indexEntries} index entries) of ${Object.keys(summary.tables).length} tables from ${shown(source)} to ${shown(target)}`;
  return { ...summary, line };
}

/** The message of a failure, on one line, with any connection string's password masked. */
const oneLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/postgres(ql)?:\/\/\S+/g, (url) => maskedUrl(url)).replace(/\s*\n\s*/g, ' ');

/** Runs the command line (`args` after the script); resolves to the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const program = new Command('npm run store:copy --')
    .description('Copies every record of one store into another that holds none (docs/store-copy.md).')
    .requiredOption('--from <store>', USAGE)
    .requiredOption('--to <store>', USAGE)
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  try {
    program.parse(args, { from: 'user' });
    const { from, to } = program.opts<{ from: string; to: string }>();
    console.log((await copyStore(from, to)).line);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.help')) return 0;
    console.error(`store:copy: ${oneLine(error).replace(/^error: /, '')}`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(resolve(process.argv[1]))).href) {
  void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
