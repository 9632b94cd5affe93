import { expect } from 'chai';
import { Email } from '../../../domain/email.js';
import { InvalidCursor } from '../../errors.js';
import type { UserReadModel } from '../../ports/user-read-model.port.js';
import { ADMIN_SCAN_MAX, AdminListUsersHandler } from './admin-list-users.handler.js';
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

  it('opens only the accounts the address index gives (at most ADMIN_SCAN_MAX per request), never every account', async () => {
    const world = await inMemoryWorld({ keys: TEST_PERSONAL_DATA_KEYS });
    const emails = [...Array.from({ length: 250 }, (_, i) => `same.domain.${i}@example.com`), 'ada0@example.com', 'ada1@example.com', 'Grace@example.com'];
    for (const email of emails) await world.signUp.execute(aSignUpCommand({ email }));
    const opened: string[] = [];
    const views: UserReadModel = Object.assign(Object.create(world.userViews) as UserReadModel, {
      sessionAccountOf: (id: string) => {
        opened.push(id);
        return world.userViews.sessionAccountOf(id);
      },
    });
    const handler = new AdminListUsersHandler({ userViews: views });
    const search = async (query: string, cursor?: string) => {
      opened.length = 0;
      const page = await handler.execute({ query, limit: 100, ...(cursor === undefined ? {} : { cursor }) });
      return { emails: page.users.map((user) => user.email), opened: opened.length, nextCursor: page.nextCursor };
    };
    expect(await search('nobody has this')).to.deep.equal({ emails: [], opened: 0, nextCursor: null });
    expect(await search('ADA')).to.deep.equal({ emails: ['ada0@example.com', 'ada1@example.com'], opened: 2, nextCursor: null });
    expect(await search('grace@example.com')).to.deep.equal({ emails: ['grace@example.com'], opened: 1, nextCursor: null });
    const found: string[] = [];
    let total = 0;
    for (let page = await search('same.domain.1'); ; page = await search('same.domain.1', page.nextCursor)) {
      expect(page.opened, 'indexed length 12: 250 candidates, 111 matches').to.be.at.most(ADMIN_SCAN_MAX);
      found.push(...page.emails);
      total += page.opened;
      if (page.nextCursor === null) break;
    }
    expect(new Set(found).size).to.equal(111);
    expect(found.every((email) => email.startsWith('same.domain.1'))).to.equal(true);
    expect(total, 'each candidate opened once').to.be.at.most(250);
    const first = await search('same.domain.x');
    expect([first.emails, first.opened]).to.deep.equal([[], ADMIN_SCAN_MAX]);
    const rest = await search('same.domain.x', first.nextCursor!);
    expect(rest).to.deep.equal({ emails: [], opened: 250 - ADMIN_SCAN_MAX, nextCursor: null });
  });

  it('finds an account by its new address once it changed, and never by the old one', async () => {
    const world = await inMemoryWorld({ keys: TEST_PERSONAL_DATA_KEYS });
    const { user } = await world.signUp.execute(aSignUpCommand({ email: 'old.name@example.com' }));
    const account = await world.users.findById(user.id);
    const parsed = Email.parse('new.name@example.com');
    if (!parsed.ok) throw new Error('a valid address');
    account!.changeEmail(parsed.value, world.clock.now());
    await world.users.save(account!, []);
    expect((await world.adminListUsers.execute({ query: 'new.name@' })).users.map((found) => found.id)).to.deep.equal([user.id]);
    expect((await world.adminListUsers.execute({ query: 'old.name' })).users).to.deep.equal([]);
  });

  it('refuses a cursor it did not give and a query too long', async () => {
    const world = await inMemoryWorld();
    expect(await rejection(world.adminListUsers.execute({ cursor: 'bm90IGEgY3Vyc29y' }))).to.be.instanceOf(InvalidCursor);
    expect(await rejection(world.adminListUsers.execute({ query: 'a'.repeat(255) }))).to.have.property('code', 'INVALID_INPUT');
  });
});
