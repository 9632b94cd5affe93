import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

const ROOT = join(import.meta.dirname, '../../..');

/**
 * The lines of each technology folder as last reported (docs/architecture.md): held flat or lower. A change that must
 * add lines to a technology raises its figure here and in the doc, with its reason in the commit; new state is
 * written once, under storage/, not once per technology.
 */
const REPORTED = { memory: 103, lmdb: 544, mongo: 623, postgres: 544 };

const linesUnder = (folder: string): number =>
  readdirSync(join(ROOT, 'src/infrastructure', folder))
    .filter((name) => name.endsWith('.ts'))
    .reduce((sum, name) => sum + readFileSync(join(ROOT, 'src/infrastructure', folder, name), 'utf8').split('\n').length - 1, 0);

describe('The technology folders hold the primitive only', () => {
  const counts = { memory: linesUnder('memory'), lmdb: linesUnder('lmdb'), mongo: linesUnder('mongo'), postgres: linesUnder('postgres') };
  const total = counts.memory + counts.lmdb + counts.mongo + counts.postgres;

  it('each hold their lines flat or lower than last reported', () => {
    expect(counts.memory).to.be.at.most(REPORTED.memory);
    expect(counts.lmdb).to.be.at.most(REPORTED.lmdb);
    expect(counts.mongo).to.be.at.most(REPORTED.mongo);
    expect(counts.postgres).to.be.at.most(REPORTED.postgres);
  });

  it('are counted in docs/architecture.md as they are', () => {
    const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8').replace(/\s+/g, ' ');
    const stated = `${total.toLocaleString('en-US')} lines in all (memory ${counts.memory}, LMDB ${counts.lmdb}, MongoDB ${counts.mongo}, PostgreSQL ${counts.postgres})`;
    expect(architecture).to.include(stated);
  });
});
