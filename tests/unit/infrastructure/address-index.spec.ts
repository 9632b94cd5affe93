import { expect } from 'chai';
import { AddressIndexJob } from '../../../src/infrastructure/jobs/address-index.job.js';
import { ADDRESS_INDEX, ADDRESS_INDEX_PROGRESS, INDEXED_UP_TO } from '../../../src/infrastructure/storage/address-index.js';
import { ACCOUNT_VIEWS } from '../../../src/infrastructure/storage/account-tables.js';
import { INDEXED_PER_SEARCH } from '../../../src/infrastructure/storage/store-read-models.js';
import { type Store, type Table, remove } from '../../../src/infrastructure/storage/store.js';
import { aSignUpCommand } from '../../support/builders.js';
import { inMemoryWorld } from '../../support/in-memory-world.js';
import { TEST_PERSONAL_DATA_KEYS } from '../../support/storages.js';
import { sealingStoreOver } from '../../../src/infrastructure/storage/storage.js';

/** The store, counting the account views it reads (each one an account opened). */
const countingViews = (inner: Store) => {
  const counted = { views: 0 };
  const store: Store = Object.assign(Object.create(inner) as Store, {
    get: <R>(table: Table<R>, key: string) => {
      if (table === (ACCOUNT_VIEWS as unknown as Table<R>)) counted.views += 1;
      return inner.get(table, key);
    },
  });
  return { store, counted };
};

describe('The admin search\'s address index (address-index.ts)', () => {
  it('keeps no prefix of an address in clear: each is a blind index', async () => {
    const world = await inMemoryWorld({ keys: TEST_PERSONAL_DATA_KEYS });
    await world.signUp.execute(aSignUpCommand({ email: 'lovelace@example.com' }));
    const stored = JSON.stringify(world.tables.rowsOf(ADDRESS_INDEX));
    expect(world.tables.rowsOf(ADDRESS_INDEX)[0]?.value.terms, 'one per indexed length up to its 20 characters').to.have.length(10);
    for (const prefix of ['lov', 'love', 'lovelace', 'example']) expect(stored).not.to.include(prefix);
  });

  it('indexes the accounts listed before it existed once (its job); a search indexes at most INDEXED_PER_SEARCH of them', async () => {
    const world = await inMemoryWorld({ keys: TEST_PERSONAL_DATA_KEYS });
    for (let i = 0; i < INDEXED_PER_SEARCH + 20; i++) await world.signUp.execute(aSignUpCommand({ email: `early${i}@example.com` }));
    const unindexed = () => world.tables.commit({ changes: [...world.tables.rowsOf(ADDRESS_INDEX).map((row) => remove(ADDRESS_INDEX, row.key, 'any')), remove(ADDRESS_INDEX_PROGRESS, INDEXED_UP_TO, 'any')] });
    await unindexed();
    expect((await world.adminListUsers.execute({ query: 'early', limit: 100 })).users, 'the first search indexes 100').to.have.length(100);
    await unindexed();
    const sealed = sealingStoreOver(world.tables, TEST_PERSONAL_DATA_KEYS);
    const { store, counted } = countingViews(sealed);
    const job = new AddressIndexJob(store, 60_000, { debug: () => undefined }, 50);
    await job.runOnce();
    expect(counted.views, 'each account opened once').to.equal(INDEXED_PER_SEARCH + 20);
    counted.views = 0;
    await job.runOnce();
    expect(counted.views, 'then never again').to.equal(0);
    const seen = new Set<string>();
    for (let cursor: string | null | undefined; cursor !== null; ) {
      const page = await world.adminListUsers.execute({ query: 'EARLY', limit: 100, ...(cursor === undefined ? {} : { cursor }) });
      for (const user of page.users) seen.add(user.email);
      cursor = page.nextCursor;
    }
    expect(seen.size).to.equal(INDEXED_PER_SEARCH + 20);
  });
});
