import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { LmdbStore } from '../../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbTables } from '../../../src/infrastructure/lmdb/lmdb-tables.js';
import { TABLES } from '../../../src/infrastructure/storage/ownership.js';
import { tempDir } from '../../support/test-service.js';

describe('The embedded store opens every table', () => {
  it('has room for the databases of every table and index (LMDB maxDbs), with room to spare for new ones', async () => {
    const dir = tempDir('lmdb-dbs');
    const store = LmdbStore.open(dir);
    try {
      expect(() => new LmdbTables(store).prepare(TABLES)).to.not.throw();
      const opened = TABLES.reduce((sum, table) => sum + 1 + Object.keys(table.indexes).length + (table.expiresAt ? 1 : 0), 0);
      expect(opened, 'databases the tables need, against the room LmdbStore.open gives').to.be.below(LmdbStore.MAX_DATABASES / 2);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
