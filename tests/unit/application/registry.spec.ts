import { existsSync, readdirSync } from 'node:fs';
import { expect } from 'chai';
import { inMemoryWorld } from '../../support/in-memory-world.js';

const USE_CASES_DIR = new URL('../../../src/application/use-cases/', import.meta.url);
/** The registry's use cases: the entries that have `execute` (the others are ports the edge reads as they are). */
const useCaseKeys = (registry: object): string[] =>
  Object.entries(registry)
    .filter(([, value]) => typeof (value as { execute?: unknown } | null)?.execute === 'function')
    .map(([key]) => key);
const kebab = (key: string): string => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

describe('The registry of use cases and the use-case folders', () => {
  let keys: string[] = [];
  before(async () => (keys = useCaseKeys((await inMemoryWorld()).useCases)));

  it('finds the use cases in the registry (the check below has something to check)', () => {
    expect(keys).to.include.members(['signUp', 'signIn', 'refreshSession', 'listSessions']);
  });

  it('gives every use case of the registry its folder with a handler and a spec: use-cases/<kebab-key>/<kebab-key>.spec.ts', () => {
    const missing = keys.filter((key) => !existsSync(new URL(`${kebab(key)}/${kebab(key)}.spec.ts`, USE_CASES_DIR)));
    expect(missing, 'use cases without a spec in their folder').to.deep.equal([]);
    const withoutHandler = keys.filter((key) => !existsSync(new URL(`${kebab(key)}/${kebab(key)}.handler.ts`, USE_CASES_DIR)));
    expect(withoutHandler, 'use cases without a handler file named after them').to.deep.equal([]);
  });

  it('has no use-case folder that the registry does not list', () => {
    const folders = readdirSync(USE_CASES_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.filter((folder) => !keys.map(kebab).includes(folder))).to.deep.equal([]);
  });
});
