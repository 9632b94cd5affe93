import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { ServiceUnavailable } from '../../src/application/ports/service-unavailable.js';
import { LmdbStoreHealth } from '../../src/infrastructure/lmdb/lmdb-store-health.js';
import { LmdbStore } from '../../src/infrastructure/lmdb/lmdb-store.js';
import { tempDir } from '../support/test-service.js';

describe('LmdbStoreHealth', () => {
  it('rejects with ServiceUnavailable(store_unavailable) once the store is closed', async () => {
    const dir = tempDir('lmdb-health');
    const store = LmdbStore.open(dir);
    const health = new LmdbStoreHealth(store);
    try {
      await health.check();
      await store.close();
      const failure = await health.check().then(() => null, (error: unknown) => error);
      expect(failure).to.be.instanceOf(ServiceUnavailable).and.include({ reason: 'store_unavailable' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
