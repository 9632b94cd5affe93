import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

const ROOT = join(import.meta.dirname, '../../..');
/** The lines under the three technology folders before the storage primitive (issue 34 asks for at most half). */
const BEFORE_THE_PRIMITIVE = 2301;

const linesUnder = (folder: string): number =>
  readdirSync(join(ROOT, 'src/infrastructure', folder))
    .filter((name) => name.endsWith('.ts'))
    .reduce((sum, name) => sum + readFileSync(join(ROOT, 'src/infrastructure', folder, name), 'utf8').split('\n').length - 1, 0);

describe('The technology folders hold the primitive only', () => {
  const counts = { memory: linesUnder('memory'), lmdb: linesUnder('lmdb'), mongo: linesUnder('mongo') };
  const total = counts.memory + counts.lmdb + counts.mongo;

  it('stay at most half the lines they had before the storage primitive: new state is written once, under storage/', () => {
    expect(total).to.be.at.most(Math.floor(BEFORE_THE_PRIMITIVE / 2));
  });

  it('are counted in docs/architecture.md as they are', () => {
    const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8').replace(/\s+/g, ' ');
    const stated = `${total.toLocaleString('en-US')} lines in all (memory ${counts.memory}, LMDB ${counts.lmdb}, MongoDB ${counts.mongo})`;
    expect(architecture).to.include(stated);
  });
});
