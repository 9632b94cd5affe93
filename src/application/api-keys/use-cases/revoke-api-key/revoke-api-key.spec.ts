import { expect } from 'chai';
import { InvalidToken } from '../../../errors.js';
import { ApiKeyNotFound } from '../../errors.js';
import { aRequestMetadata } from '../../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import type { CapabilityRecordedEvent } from '../../../ports/event-log.port.js';

const metadata = aRequestMetadata();

describe('RevokeApiKeyHandler (revokeApiKey)', () => {
  it('refuses the key at once; of 10 simultaneous revocations exactly one records ApiKeyRevoked, the rest are told it is gone', async () => {
    const world = await inMemoryWorld();
    const { id, key } = await world.createApiKey.execute({ name: 'ops', scopes: 'introspect', metadata });
    expect(await world.authenticateApiKey.execute({ key, scope: 'introspect' })).to.deep.equal({ keyId: id, scopes: ['introspect'] });
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => world.revokeApiKey.execute({ id, metadata })));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(1);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).to.be.instanceOf(ApiKeyNotFound);
    expect((world.store.events as readonly CapabilityRecordedEvent[]).filter((event) => event.type === 'ApiKeyRevoked')).to.have.length(1);
    expect(await rejection(world.authenticateApiKey.execute({ key, scope: 'introspect' }))).to.be.instanceOf(InvalidToken);
    expect((await world.listApiKeys.execute())[0]?.revokedAt).to.be.a('string');
  });

  it('answers ApiKeyNotFound for an id no key has', async () => {
    const world = await inMemoryWorld();
    expect(await rejection(world.revokeApiKey.execute({ id: 'no-such-key', metadata }))).to.be.instanceOf(ApiKeyNotFound);
  });
});
