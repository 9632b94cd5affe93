import { expect } from 'chai';
import { aRequestMetadata } from '../../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';

const metadata = aRequestMetadata();

describe('ListApiKeysHandler (listApiKeys)', () => {
  it('lists every key oldest first, revoked ones included, with no secret and no hash', async () => {
    const world = await inMemoryWorld();
    const first = await world.createApiKey.execute({ name: 'first', scopes: 'users:read', metadata });
    world.clock.advance(1000);
    const second = await world.createApiKey.execute({ name: 'second', scopes: 'users:write', metadata });
    await world.revokeApiKey.execute({ id: first.id, metadata });
    const listed = await world.listApiKeys.execute();
    expect(listed.map((key) => [key.name, key.revokedAt === null])).to.deep.equal([['first', false], ['second', true]]);
    expect(listed.map((key) => Object.keys(key).sort())).to.deep.equal([['createdAt', 'id', 'name', 'revokedAt', 'scopes'], ['createdAt', 'id', 'name', 'revokedAt', 'scopes']]);
    expect(JSON.stringify(listed)).not.to.include(first.key.slice(-20)).and.not.include(second.key.slice(-20));
  });
});
