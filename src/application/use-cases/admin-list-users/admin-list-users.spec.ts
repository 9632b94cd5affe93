import { expect } from 'chai';
import { InvalidCursor } from '../../errors.js';
import { aSignUpCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { TEST_PERSONAL_DATA_KEYS } from '../../../../tests/support/storages.js';

describe('AdminListUsersHandler (adminListUsers)', () => {
  it('lists the accounts whose address starts with the query, any case, paged by cursor to the end; a deleted account is gone', async () => {
    const world = await inMemoryWorld({ keys: TEST_PERSONAL_DATA_KEYS });
    for (const email of ['ada0', 'ada1', 'grace0', 'ada2', 'ada3', 'grace1', 'ada4', 'grace2'].map((local) => `${local}@example.com`)) {
      await world.signUp.execute(aSignUpCommand({ email }));
      world.clock.advance(1000);
    }
    const first = await world.adminListUsers.execute({ query: 'ADA', limit: 2 });
    expect(first.users.map((user) => user.email)).to.deep.equal(['ada0@example.com', 'ada1@example.com']);
    expect(first.users[0]).to.include({ disabled: false, emailverified: false });
    const seen = [...first.users];
    for (let cursor = first.nextCursor; cursor !== null; ) {
      const page = await world.adminListUsers.execute({ query: 'ada', limit: 2, cursor });
      seen.push(...page.users);
      cursor = page.nextCursor;
    }
    expect(seen.map((user) => user.email)).to.deep.equal([0, 1, 2, 3, 4].map((i) => `ada${i}@example.com`));
    expect((await world.adminListUsers.execute({})).users).to.have.length(8);
    const gone = await world.users.findByEmail('grace1@example.com');
    await world.users.erase(gone!, []);
    expect((await world.adminListUsers.execute({ query: 'grace' })).users.map((user) => user.email)).to.deep.equal(['grace0@example.com', 'grace2@example.com']);
  });

  it('refuses a cursor it did not give and a query too long', async () => {
    const world = await inMemoryWorld();
    expect(await rejection(world.adminListUsers.execute({ cursor: 'bm90IGEgY3Vyc29y' }))).to.be.instanceOf(InvalidCursor);
    expect(await rejection(world.adminListUsers.execute({ query: 'a'.repeat(255) }))).to.have.property('code', 'INVALID_INPUT');
  });
});
