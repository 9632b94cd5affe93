/**
 * `npm run docs:generate`: writes docs/configuration.md whole from the configuration schema and fills every
 * generated region (`<!-- generated:NAME -->` … `<!-- /generated:NAME -->`) of README.md and docs/*.md from the
 * code's own tables, so that those pages say what the code does. A file is written only when it changes; an unknown
 * region name or a broken marker stops it with the file and line (exit code 1). tests/unit/docs checks the result.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderConfigurationPage } from './docs/config-table.js';
import { CONFIGURATION_PAGE, regionPages } from './docs/pages.js';
import { RegionError, fillRegions } from './docs/regions.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Writes `text` to `page` unless it already holds exactly that; true when it wrote. */
const update = (page: string, text: string): boolean => {
  const path = join(root, page);
  let current: string | null = null;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    mkdirSync(dirname(path), { recursive: true });
  }
  if (current === text) return false;
  writeFileSync(path, text);
  return true;
};

try {
  const written = [CONFIGURATION_PAGE].filter((page) => update(page, renderConfigurationPage()));
  for (const page of regionPages(root).filter((name) => name !== CONFIGURATION_PAGE)) {
    if (update(page, fillRegions(readFileSync(join(root, page), 'utf8'), page))) written.push(page);
  }
  process.stdout.write(written.length === 0 ? 'docs: up to date\n' : `docs: wrote ${written.join(', ')}\n`);
} catch (error) {
  if (!(error instanceof RegionError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
