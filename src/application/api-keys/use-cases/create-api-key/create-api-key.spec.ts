import { expect } from 'chai';
import type { InvalidInput } from '../../../../domain/domain-error.js';
import { aRequestMetadata } from '../../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import type { CapabilityRecordedEvent } from '../../../ports/event-log.port.js';
import { API_KEY_REPOSITORY } from '../../ports/api-key-repository.port.js';

const metadata = aRequestMetadata();

describe('CreateApiKeyHandler (createApiKey)', () => {
  it('makes a key shown once, keeps only its keyed hash, and records ApiKeyCreated without a secret', async () => {
    const world = await inMemoryWorld();
    const created = await world.createApiKey.execute({ name: 'billing', scopes: 'users:read, introspect,users:read', metadata });
    expect(created.key).to.match(/^ask_[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43}$/);
    expect(created).to.deep.include({ name: 'billing', scopes: ['users:read', 'introspect'], revokedAt: null });
    const stored = await world.get(API_KEY_REPOSITORY).findById(created.id);
    expect(stored?.secretHash).to.be.a('string').and.not.equal(created.key);
    expect(JSON.stringify(await world.listApiKeys.execute())).not.to.include(created.key.slice(-20)).and.not.include(stored?.secretHash ?? '-');
    const [event] = (world.store.events as readonly CapabilityRecordedEvent[]).filter((recorded) => recorded.type === 'ApiKeyCreated');
    expect(event?.payload).to.deep.equal({ keyId: created.id, name: 'billing', scopes: ['users:read', 'introspect'] });
    expect(event?.metadata.actor).to.equal('cli');
    expect(JSON.stringify(world.store.events)).not.to.include(created.key.slice(-20));
  });

  it('refuses an unknown or empty scope and a name it cannot show, naming the field', async () => {
    const world = await inMemoryWorld();
    for (const [scopes, name, field] of [['users:admin', 'ok', 'scopes'], ['', 'ok', 'scopes'], ['introspect', '', 'name'], ['introspect', 'a'.repeat(65), 'name']]) {
      const error = (await rejection(world.createApiKey.execute({ name: name ?? '', scopes: scopes ?? '', metadata }))) as InvalidInput;
      expect(error.issues.map((issue) => issue.field), `${scopes} ${name}`).to.deep.equal([field]);
    }
    expect(await world.listApiKeys.execute()).to.deep.equal([]);
  });
});
