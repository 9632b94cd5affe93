import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The page written whole from the configuration schema, relative to the repository root. */
export const CONFIGURATION_PAGE = 'docs/configuration.md';

/** The pages that may hold generated regions: README.md and every docs/*.md, relative to the root, sorted. */
export function regionPages(root: string): string[] {
  const docs = existsSync(join(root, 'docs')) ? readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort() : [];
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}
