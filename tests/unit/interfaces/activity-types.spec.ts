import { expect } from 'chai';
import { toActivityEntry } from '../../../src/infrastructure/read-model/event-log-activity-read-model.js';
import { ACTIVITY_TYPES } from '../../../src/interfaces/http/shared/activity-types.js';

describe('OpenAPI enum of activity types', () => {
  it('is exactly what the read model names each domain event type (no value the server could answer outside it)', () => {
    const named = ['UserRegistered', 'SignInFailed', 'RefreshTokenReused', 'EmailVerificationRequested', 'PasswordReset', 'SessionsEnded'].map(
      (type) => toActivityEntry({ type, aggregateId: 'u', occurredAt: new Date(0).toISOString(), payload: {}, metadata: { requestId: 'r', clientIp: null, userAgent: null } } as never).type,
    );
    expect(ACTIVITY_TYPES).to.include.members(named);
    expect(ACTIVITY_TYPES).to.have.length(14);
    expect(ACTIVITY_TYPES.every((type) => /^[a-z]+(_[a-z]+)*$/.test(type))).to.equal(true);
  });
});
