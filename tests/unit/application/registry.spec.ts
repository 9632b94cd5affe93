import { existsSync, readdirSync } from 'node:fs';
import { expect } from 'chai';
import { inMemoryWorld } from '../../support/in-memory-world.js';

const APPLICATION = new URL('../../../src/application/', import.meta.url);
/** The core's use-case folders, and every capability's home's (src/application/<capability>/use-cases/). */
const USE_CASE_DIRS = [
  new URL('use-cases/', APPLICATION),
  ...readdirSync(APPLICATION, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => new URL(`${entry.name}/use-cases/`, APPLICATION)),
].filter((dir, at, all) => existsSync(dir) && all.findIndex((other) => other.href === dir.href) === at);
const inAFolder = (file: (key: string) => string) => (key: string) => USE_CASE_DIRS.some((dir) => existsSync(new URL(file(key), dir)));
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
    const missing = keys.filter((key) => !inAFolder((name) => `${kebab(name)}/${kebab(name)}.spec.ts`)(key));
    expect(missing, 'use cases without a spec in their folder').to.deep.equal([]);
    const withoutHandler = keys.filter((key) => !inAFolder((name) => `${kebab(name)}/${kebab(name)}.handler.ts`)(key));
    expect(withoutHandler, 'use cases without a handler file named after them').to.deep.equal([]);
  });

  it('has no use-case folder that the registry does not list', () => {
    const folders = USE_CASE_DIRS.flatMap((dir) => readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name));
    expect(folders.filter((folder) => !keys.map(kebab).includes(folder))).to.deep.equal([]);
  });
});
