import { expect } from 'chai';
import { toActivityEntry } from '../../../src/infrastructure/read-model/event-log-activity-read-model.js';
import { RETENTION } from '../../../src/infrastructure/storage/retention.js';
import { ACTIVITY_TYPES } from '../../../src/interfaces/http/shared/activity-types.js';

describe('OpenAPI enum of activity types', () => {
  it('is exactly what the read model names the event types an account\'s feed can hold (every type but SignUpCancelled, AccountDeleted and AccountDeletionNoticed, each recorded as its account is erased)', () => {
    const feedTypes = Object.keys(RETENTION).filter((type) => !['SignUpCancelled', 'AccountDeleted', 'AccountDeletionNoticed', 'ApiKeyCreated', 'ApiKeyRevoked'].includes(type));
    const named = feedTypes.map(
      (type) => toActivityEntry({ type, aggregateId: 'u', occurredAt: new Date(0).toISOString(), payload: {}, metadata: { requestId: 'r', clientIp: null, userAgent: null } } as never).type,
    );
    expect([...ACTIVITY_TYPES].sort()).to.deep.equal([...new Set(named)].sort());
    expect(ACTIVITY_TYPES).to.include('session_started');
    expect(ACTIVITY_TYPES.every((type) => /^[a-z]+(_[a-z]+)*$/.test(type))).to.equal(true);
  });
});
