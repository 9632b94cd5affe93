import { expect } from 'chai';
import { Session, endOf } from '../../../src/domain/session.js';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const LIFETIMES = { idleSeconds: 100, maxSeconds: 250 };
const aSession = () =>
  Session.start({ id: 's-1', userId: 'u-1', email: 'ada@example.com', at: T0, clientIp: '203.0.113.7', userAgent: 'agent', lifetimes: LIFETIMES, epoch: 0 });

describe('Session', () => {
  it('starts at generation 0 with SessionStarted (of its account, as every session event, so the activity feed shows it), live until the idle deadline', () => {
    const session = aSession();
    expect(session.pullEvents()).to.deep.equal([
      { type: 'SessionStarted', aggregateId: 'u-1', occurredAt: T0, payload: { email: 'ada@example.com', sessionId: 's-1' } },
    ]);
    expect(session.generation).to.equal(0);
    expect(session.isLive(at(99), 0)).to.equal(true);
    expect(session.isLive(at(100), 0)).to.equal(false);
  });

  it('restarts the idle deadline on rotation but never passes the absolute one', () => {
    const session = aSession();
    session.rotate(at(90), LIFETIMES);
    expect(session.isLive(at(189), 0)).to.equal(true);
    session.rotate(at(180), LIFETIMES);
    expect(session.generation).to.equal(2);
    expect(session.isLive(at(249), 0)).to.equal(true);
    expect(session.isLive(at(250), 0)).to.equal(false);
  });

  it('decides: current generation rotates, the previous one within grace is grace, anything else is reuse', () => {
    const session = aSession();
    expect(session.decide(0, at(1), 10)).to.equal('rotate');
    session.rotate(at(5), LIFETIMES);
    expect(session.decide(0, at(15), 10)).to.equal('grace');
    expect(session.decide(0, at(16), 10)).to.equal('reuse');
    expect(session.decide(0, at(5), 0)).to.equal('grace');
    expect(session.decide(0, at(6), 0)).to.equal('reuse');
    session.rotate(at(6), LIFETIMES);
    expect(session.decide(0, at(7), 10)).to.equal('reuse');
    expect(session.decide(3, at(7), 10)).to.equal('reuse');
  });

  it('revokes once: the first reason stays, later revocations record nothing', () => {
    const session = aSession();
    session.pullEvents();
    session.revoke('sign_out', at(1));
    session.revoke('password_changed', at(2));
    expect(session.snapshot()).to.deep.include({ revokedAt: at(1), revokedReason: 'sign_out' });
    expect(session.isLive(at(1), 0)).to.equal(false);
    expect(session.pullEvents().map((event) => event.payload)).to.deep.equal([{ email: 'ada@example.com', sessionId: 's-1', reason: 'sign_out' }]);
  });

  it('on reuse records RefreshTokenReused then SessionRevoked(reuse_detected), both events of the account', () => {
    const session = aSession();
    session.pullEvents();
    session.reuseDetected(at(3));
    expect(session.pullEvents().map((event) => [event.type, event.aggregateId])).to.deep.equal([
      ['RefreshTokenReused', 'u-1'],
      ['SessionRevoked', 'u-1'],
    ]);
    expect(session.snapshot().revokedReason).to.equal('reuse_detected');
  });

  it('counts wrong current passwords and ends itself at the limit (too_many_password_failures); a record without the count reads 0', () => {
    const session = aSession();
    session.pullEvents();
    for (let i = 0; i < 4; i++) session.passwordCheckFailed(at(i), 5);
    expect(session.revoked).to.equal(false);
    expect(session.snapshot().passwordFailures).to.equal(4);
    session.passwordCheckFailed(at(5), 5);
    expect(session.snapshot()).to.include({ revokedReason: 'too_many_password_failures', passwordFailures: 5 });
    expect(session.pullEvents().map((event) => event.type)).to.deep.equal(['SessionRevoked']);
    const { passwordFailures: _dropped, ...older } = aSession().snapshot();
    expect(Session.restore(older).snapshot().passwordFailures).to.equal(0);
  });

  it('ends, for the sweep, at its deadline, or at its revocation when that came first', () => {
    const session = aSession();
    expect(endOf(session.snapshot())).to.deep.equal(at(100));
    session.revoke('sign_out', at(10));
    expect(endOf(session.snapshot())).to.deep.equal(at(10));
    const late = aSession();
    late.revoke('expired', at(120));
    expect(endOf(late.snapshot())).to.deep.equal(at(100));
  });

  it("is live only while its account is at the session's epoch; carried into a new one, it lives there alone", () => {
    const session = aSession();
    const { epoch: _omitted, ...older } = session.snapshot();
    const restoredOld = Session.restore(older);
    expect(restoredOld.epoch).to.equal(0);
    expect(session.isLive(at(10), 1)).to.equal(false);
    session.carryInto(1);
    expect(session.isLive(at(10), 1)).to.equal(true);
    expect(session.isLive(at(10), 0)).to.equal(false);
    expect(session.snapshot().epoch).to.equal(1);
  });

  it('remembers how and when its holder proved who they are: a password at the start, kept by rotation, raised by a step-up', () => {
    const session = aSession();
    expect([session.amr, session.authTime]).to.deep.equal([['pwd'], T0]);
    session.rotate(at(50), LIFETIMES);
    expect([session.amr, session.authTime]).to.deep.equal([['pwd'], T0]);
    session.proved(['otp'], at(60));
    session.proved(['otp'], at(70));
    expect([session.amr, session.authTime]).to.deep.equal([['pwd', 'otp'], at(70)]);
    const { amr: _amr, authTime: _authTime, ...older } = aSession().snapshot();
    expect([Session.restore(older).amr, Session.restore(older).authTime]).to.deep.equal([['pwd'], T0]);
    const withCode = Session.start({ id: 's-2', userId: 'u-1', email: 'ada@example.com', at: T0, clientIp: null, userAgent: null, lifetimes: LIFETIMES, epoch: 0, amr: ['pwd', 'otp'] });
    expect(withCode.snapshot()).to.deep.include({ amr: ['pwd', 'otp'], authTime: T0 });
  });
});
