import { expect } from 'chai';
import { Email } from '../../../src/domain/email.js';
import { PersonName } from '../../../src/domain/person-name.js';
import { User } from '../../../src/domain/user.js';
import { valueOf } from '../../support/parsed.js';

const at = new Date('2026-01-01T00:00:00.000Z');
const later = new Date('2026-01-01T00:05:00.000Z');

const registered = () =>
  User.register({
    id: 'user-1',
    name: valueOf(PersonName.parse('name', 'Ada')),
    lastname: valueOf(PersonName.parse('lastname', 'Lovelace')),
    email: valueOf(Email.parse('ada@example.com')),
    passwordHash: 'hash-1',
    at,
  });

describe('User', () => {
  it('records UserRegistered on registration, with the e-mail and nothing secret', () => {
    const events = registered().pullEvents();
    expect(events).to.deep.equal([{ type: 'UserRegistered', aggregateId: 'user-1', occurredAt: at, payload: { email: 'ada@example.com' } }]);
    expect(JSON.stringify(events)).not.to.include('hash-1');
  });

  it('hands out its events exactly once', () => {
    const user = registered();
    expect(user.pullEvents()).to.have.length(1);
    expect(user.pullEvents()).to.deep.equal([]);
  });

  it('records sign-ins, failures and rehashes in order', () => {
    const user = registered();
    user.pullEvents();
    user.recordFailedSignIn(at);
    user.rehashPassword('hash-2', later);
    user.recordSignIn(later);
    expect(user.pullEvents().map((event) => event.type)).to.deep.equal(['SignInFailed', 'PasswordRehashed', 'UserSignedIn']);
    expect(user.passwordHash).to.equal('hash-2');
  });

  it('records a failed sign-in as wrong_password on its own e-mail', () => {
    const user = registered();
    user.pullEvents();
    user.recordFailedSignIn(later);
    expect(user.pullEvents()).to.deep.equal([
      { type: 'SignInFailed', aggregateId: 'user-1', occurredAt: later, payload: { email: 'ada@example.com', reason: 'wrong_password' } },
    ]);
  });

  it('round-trips through its snapshot without events', () => {
    const user = registered();
    const restored = User.restore(user.snapshot());
    expect(restored.snapshot()).to.deep.equal(user.snapshot());
    expect(restored.pullEvents()).to.deep.equal([]);
  });

  it('cancels its sign-up only while its address is unproved: a verified account refuses, recording nothing', () => {
    const unverified = User.restore(registered().snapshot());
    expect(unverified.cancelSignUp('not_me', later)).to.equal(true);
    expect(unverified.changed).to.equal(true);
    expect(unverified.pullEvents()).to.deep.equal([{ type: 'SignUpCancelled', aggregateId: 'user-1', occurredAt: later, payload: { reason: 'not_me' } }]);

    const verified = registered();
    verified.verifyEmail(at);
    const loaded = User.restore(verified.snapshot());
    for (const reason of ['not_me', 'unverified_expired'] as const) expect(loaded.cancelSignUp(reason, later), reason).to.equal(false);
    expect(loaded.changed).to.equal(false);
    expect(loaded.pullEvents()).to.deep.equal([]);
  });

  describe('versions (optimistic concurrency)', () => {
    const loaded = (version?: number) => User.restore({ ...registered().snapshot(), ...(version === undefined ? {} : { version }) });

    it('reads a record without a version (written before versions existed) as version 0', () => {
      expect(loaded().version).to.equal(0);
      expect(loaded(7).snapshot().version).to.equal(7);
    });

    it('keeps its version for a save that only records events: a sign-in, a failed one, an unchanged profile, a repeated verification', () => {
      const user = loaded(3);
      user.recordSignIn(later);
      user.recordFailedSignIn(later);
      user.changeProfile(valueOf(PersonName.parse('name', 'Ada')), valueOf(PersonName.parse('lastname', 'Lovelace')), later);
      user.requestEmailVerification('binding', later);
      expect({ changed: user.changed, next: user.nextVersion }).to.deep.equal({ changed: false, next: 3 });
    });

    for (const [change, apply] of [
      ['a profile change', (user: User) => user.changeProfile(valueOf(PersonName.parse('name', 'Augusta')), user.lastname, later)],
      ['a password change', (user: User) => user.changePassword('hash-2', later)],
      ['a reset', (user: User) => user.resetPassword('hash-2', later)],
      ['a rehash', (user: User) => user.rehashPassword('hash-2', later)],
      ['a verification', (user: User) => user.verifyEmail(later)],
      ['the end of all its sessions', (user: User) => user.endSessions('sign_out', later, null)],
    ] as const) {
      it(`moves its version on by one for ${change}`, () => {
        const user = loaded(3);
        apply(user);
        expect({ changed: user.changed, next: user.nextVersion }).to.deep.equal({ changed: true, next: 4 });
      });
    }
  });

  describe('session epochs (ending every session at once)', () => {
    it('reads a record without an epoch (written before epochs existed) as epoch 0', () => {
      const { sessionEpoch: _omitted, ...older } = registered().snapshot();
      expect(User.restore(older).sessionEpoch).to.equal(0);
    });

    it('moves its epoch on by one for each ending, recording SessionsEnded with the reason and the kept session', () => {
      const user = registered();
      user.pullEvents();
      user.endSessions('sign_out', later, 'session-7');
      user.endSessions('password_changed', later, null);
      expect(user.sessionEpoch).to.equal(2);
      expect(User.restore(user.snapshot()).sessionEpoch).to.equal(2);
      expect(user.pullEvents()).to.deep.equal([
        { type: 'SessionsEnded', aggregateId: 'user-1', occurredAt: later, payload: { email: 'ada@example.com', reason: 'sign_out', keptSessionId: 'session-7' } },
        { type: 'SessionsEnded', aggregateId: 'user-1', occurredAt: later, payload: { email: 'ada@example.com', reason: 'password_changed', keptSessionId: null } },
      ]);
    });
  });
});
