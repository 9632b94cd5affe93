import { expect } from 'chai';
import { InsufficientScope, InvalidToken, KeyRateLimited } from '../../../errors.js';
import { aRequestMetadata } from '../../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { AuthenticateApiKeyHandler } from './authenticate-api-key.handler.js';
import { API_KEY_REPOSITORY } from '../../ports/api-key-repository.port.js';
import { API_KEY_SECRETS } from '../../ports/api-key-secrets.port.js';

const metadata = aRequestMetadata();

describe('AuthenticateApiKeyHandler (authenticateApiKey)', () => {
  it('accepts the key with the scope; refuses another scope (403), a wrong secret under its id, garbage and nothing (401)', async () => {
    const world = await inMemoryWorld();
    const { id, key } = await world.createApiKey.execute({ name: 'reader', scopes: 'users:read', metadata });
    expect(await world.authenticateApiKey.execute({ key, scope: 'users:read' })).to.deep.equal({ keyId: id, scopes: ['users:read'] });
    expect(await rejection(world.authenticateApiKey.execute({ key, scope: 'users:write' }))).to.be.instanceOf(InsufficientScope);
    const forged = `${key.slice(0, -4)}AAAA`;
    for (const presented of [forged, 'garbage', '', `ask_${'A'.repeat(16)}.${'B'.repeat(43)}`]) {
      expect(await rejection(world.authenticateApiKey.execute({ key: presented, scope: 'users:read' })), presented).to.be.instanceOf(InvalidToken);
    }
  });

  it('holds its rate limit exactly under concurrency: of 12 simultaneous requests over a limit of 5, 5 pass', async () => {
    const world = await inMemoryWorld();
    const { key } = await world.createApiKey.execute({ name: 'busy', scopes: 'introspect', metadata });
    const limited = new AuthenticateApiKeyHandler({ ...world.ports, apiKeys: world.get(API_KEY_REPOSITORY), apiKeySecrets: world.get(API_KEY_SECRETS) }, { perMinute: 5 });
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => limited.execute({ key, scope: 'introspect' })));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(5);
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as KeyRateLimited] : []));
    expect(refused.every((error) => error instanceof KeyRateLimited && error.retryAfterSeconds > 0 && error.retryAfterSeconds <= 60)).to.equal(true);
    world.clock.advance(60_001);
    expect(await limited.execute({ key, scope: 'introspect' })).to.have.property('keyId');
  });
});
