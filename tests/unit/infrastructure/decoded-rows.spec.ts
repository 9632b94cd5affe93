import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { LmdbStore } from '../../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbTables } from '../../../src/infrastructure/lmdb/lmdb-tables.js';
import { DecodedRows } from '../../../src/infrastructure/storage/decoded-rows.js';
import { type Table, put } from '../../../src/infrastructure/storage/store.js';
import { tempDir } from '../../support/test-service.js';

interface Note {
  readonly text: string;
  readonly tags: readonly string[];
}

const NOTES: Table<Note> = { name: 'decoded-notes', indexes: {}, owner: { none: 'test records' } };

/** A source of bytes that counts its decodes (JSON stands for the technology's encoding). */
const countingSource = (records: Map<string, string>) => {
  const source = {
    decodes: 0,
    getBinary: (key: string) => (records.has(key) ? Buffer.from(records.get(key)!) : undefined),
    decoder: { decode: (bytes: Uint8Array) => ((source.decodes += 1), JSON.parse(Buffer.from(bytes).toString()) as unknown) },
  };
  return source;
};

describe('Records decoded again only when their bytes change (storage/decoded-rows.ts)', () => {
  it('decodes once while the bytes stay the same, again when they change, and shares a frozen record', () => {
    const records = new Map([['a', '{"text":"one","tags":["x"]}']]);
    const source = countingSource(records);
    const rows = new DecodedRows<Note>();
    const first = rows.get('notes', source, 'a');
    expect(rows.get('notes', source, 'a')).to.equal(first);
    expect(source.decodes).to.equal(1);
    expect(Object.isFrozen(first) && Object.isFrozen(first?.tags)).to.equal(true);
    records.set('a', '{"text":"two","tags":["x"]}');
    expect(rows.get('notes', source, 'a')?.text).to.equal('two');
    expect(source.decodes).to.equal(2);
    records.delete('a');
    expect(rows.get('notes', source, 'a')).to.equal(undefined);
  });

  it('keeps at most its bound per table, and tables apart', () => {
    const records = new Map([['a', '{"text":"a","tags":[]}'], ['b', '{"text":"b","tags":[]}']]);
    const source = countingSource(records);
    const rows = new DecodedRows<Note>(1);
    rows.get('notes', source, 'a');
    rows.get('notes', source, 'b');
    rows.get('notes', source, 'a');
    expect(source.decodes, 'a was let go for b').to.equal(3);
    rows.get('other', source, 'a');
    expect(source.decodes, 'another table decodes its own').to.equal(4);
  });

  it('in LMDB, sees a record written since by another process, never the one decoded before', async () => {
    const dir = tempDir('decoded-rows');
    const store = LmdbStore.open(dir);
    const tables = new LmdbTables(store);
    try {
      expect(await tables.commit({ changes: [put(NOTES, 'n', { text: 'mine', tags: [] }, null)] })).to.deep.equal({ status: 'committed' });
      const before = await tables.get(NOTES, 'n');
      expect((await tables.get(NOTES, 'n'))?.value, 'read again, same bytes: the same record').to.equal(before?.value);
      const writer = `
        import { LmdbStore } from './src/infrastructure/lmdb/lmdb-store.ts';
        import { LmdbTables } from './src/infrastructure/lmdb/lmdb-tables.ts';
        import { put } from './src/infrastructure/storage/store.ts';
        const store = LmdbStore.open(${JSON.stringify(dir)});
        const table = { name: 'decoded-notes', indexes: {}, owner: { none: 'test records' } };
        const outcome = await new LmdbTables(store).commit({ changes: [put(table, 'n', { text: 'theirs', tags: ['t'] }, ${before?.version ?? 0})] });
        await store.close();
        if (outcome.status !== 'committed') throw new Error(JSON.stringify(outcome));`;
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', writer], { stdio: 'inherit' });
      await new Promise((resolve) => setImmediate(resolve));
      const after = await tables.get(NOTES, 'n');
      expect(after?.value).to.deep.equal({ text: 'theirs', tags: ['t'] });
      expect(after?.version).to.be.above(before?.version ?? 0);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
