import { expect } from 'chai';
import { toActivityEntry } from '../../../src/infrastructure/read-model/event-log-activity-read-model.js';

const event = (metadata: Record<string, unknown>) =>
  ({ type: 'SessionsEnded', aggregateId: 'u', occurredAt: new Date(0).toISOString(), payload: { reason: 'admin' }, eventId: 'e', metadata }) as never;

describe('An activity entry', () => {
  it("shows what an operator did as by an administrator, without the address and agent even of an event recorded with them (issue 61)", () => {
    expect(toActivityEntry(event({ requestId: 'r', clientIp: '198.51.100.4', userAgent: 'operator-console/7.1', actor: 'key:k1' }))).to.deep.equal({
      type: 'sessions_ended', occurredAt: new Date(0), clientIp: null, userAgent: null, reason: 'admin', by: 'administrator', actor: 'key:k1',
    });
    expect(toActivityEntry(event({ requestId: 'r', clientIp: '203.0.113.7', userAgent: 'owner-browser/1.0' }))).to.deep.equal({
      type: 'sessions_ended', occurredAt: new Date(0), clientIp: '203.0.113.7', userAgent: 'owner-browser/1.0', reason: 'admin',
    });
  });
});
