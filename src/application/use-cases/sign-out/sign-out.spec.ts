import { expect } from 'chai';
import { InvalidToken } from '../../errors.js';
import { InvalidInput } from '../../../domain/domain-error.js';
import { aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { WriteCountingSessions } from '../../../../tests/support/fakes.js';
import type { SessionRepository } from '../../ports/session-repository.port.js';

const metadata = aRequestMetadata();

/**
 * Ada on three devices (the sign-up's session and two sign-ins), the second one signing out; Grace, another account,
 * signed in beside her. `live()` names which of the four access tokens still authenticate.
 */
async function adaOnThreeDevices() {
  const world = await inMemoryWorld();
  const laptop = await world.signUp.execute(aSignUpCommand());
  const phone = await completedSignIn(world.signIn.execute(aSignInCommand()));
  const tablet = await completedSignIn(world.signIn.execute(aSignInCommand()));
  const grace = await world.signUp.execute(aSignUpCommand({ name: 'Grace', lastname: 'Hopper', email: 'grace@example.com' }));
  const principal = await world.authenticate.execute({ accessToken: phone.accessToken });
  const devices = { laptop, phone, tablet, grace };
  const authenticates = (accessToken: string) =>
    world.authenticate.execute({ accessToken }).then(
      () => true,
      (error: unknown) => (error instanceof InvalidToken ? false : Promise.reject(error as Error)),
    );
  const live = async () => {
    const names: string[] = [];
    for (const [name, { accessToken }] of Object.entries(devices)) if (await authenticates(accessToken)) names.push(name);
    return names;
  };
  const revocations = () =>
    world.store.events.flatMap((event) => (event.type === 'SessionRevoked' ? [{ sessionId: event.payload.sessionId, reason: event.payload.reason }] : []));
  const endings = () =>
    world.store.events.flatMap((event) => (event.type === 'SessionsEnded' ? [{ reason: event.payload.reason, keptSessionId: event.payload.keptSessionId }] : []));
  const signOut = (scope: unknown) => world.signOut.execute({ principal, scope, metadata });
  return { world, principal, live, revocations, endings, signOut };
}

describe('SignOutHandler (signOut)', () => {
  it('ends only the calling session for scope local, the default, and records SessionRevoked(sign_out) for it', async () => {
    const { principal, live, revocations, signOut } = await adaOnThreeDevices();
    await signOut(undefined);

    expect(await live()).to.deep.equal(['laptop', 'tablet', 'grace']);
    expect(revocations()).to.deep.equal([{ sessionId: principal.sessionId, reason: 'sign_out' }]);
  });

  it('ends every other session of the account for scope others, and keeps the calling one: one SessionsEnded(sign_out)', async () => {
    const { principal, live, revocations, endings, signOut } = await adaOnThreeDevices();
    await signOut('others');

    expect(await live()).to.deep.equal(['phone', 'grace']);
    expect(endings()).to.deep.equal([{ reason: 'sign_out', keptSessionId: principal.sessionId }]);
    expect(revocations()).to.deep.equal([]);
  });

  it('ends every session of the account for scope global, and none of another account', async () => {
    const { live, endings, signOut } = await adaOnThreeDevices();
    await signOut('global');

    expect(await live()).to.deep.equal(['grace']);
    expect(endings()).to.deep.equal([{ reason: 'sign_out', keptSessionId: null }]);
  });

  it('keeps ending the sessions opened after an earlier sign-out of the others (each ending moves the epoch on)', async () => {
    const { world, principal, live, endings, signOut } = await adaOnThreeDevices();
    await signOut('others');
    const later = await completedSignIn(world.signIn.execute(aSignInCommand()));
    expect(await world.authenticate.execute({ accessToken: later.accessToken })).to.include({ userId: principal.userId });
    await signOut('others');

    expect(await live()).to.deep.equal(['phone', 'grace']);
    expect(await rejection(world.authenticate.execute({ accessToken: later.accessToken }))).to.be.instanceOf(InvalidToken);
    expect(endings()).to.have.length(2);
  });

  it('is idempotent: signing out an ended session again records nothing more', async () => {
    const { world, signOut } = await adaOnThreeDevices();
    await signOut('local');
    const eventsAfterFirst = world.store.events.length;
    await signOut('local');
    await signOut('global');
    await signOut('others');

    expect(world.store.events.length).to.equal(eventsAfterFirst);
  });

  it('answers an unknown scope with InvalidInput on scope and ends nothing', async () => {
    const { live, revocations, signOut } = await adaOnThreeDevices();
    const error = await rejection(signOut('everywhere'));

    expect(error).to.be.instanceOf(InvalidInput);
    expect((error as InvalidInput).issues).to.deep.equal([{ field: 'scope', code: 'NOT_ONE_OF', message: 'must be one of local, others, global' }]);
    expect(await live()).to.deep.equal(['laptop', 'phone', 'tablet', 'grace']);
    expect(revocations()).to.deep.equal([]);
  });

  it('answers a null scope with InvalidInput on scope (only an absent scope means local) and ends nothing', async () => {
    const { live, revocations, signOut } = await adaOnThreeDevices();
    const error = await rejection(signOut(null));

    expect(error).to.be.instanceOf(InvalidInput);
    expect((error as InvalidInput).issues).to.deep.equal([{ field: 'scope', code: 'NOT_ONE_OF', message: 'must be one of local, others, global' }]);
    expect(await live()).to.deep.equal(['laptop', 'phone', 'tablet', 'grace']);
    expect(revocations()).to.deep.equal([]);
  });

  it('ends 40 other sessions with one write of the account and one SessionsEnded, writing none of the 40', async () => {
    let counted = new WriteCountingSessions({} as SessionRepository);
    const world = await inMemoryWorld({ wrap: (ports) => ({ sessions: (counted = new WriteCountingSessions(ports.sessions)) })  });
    const here = await world.signUp.execute(aSignUpCommand());
    for (let i = 0; i < 40; i++) await completedSignIn(world.signIn.execute(aSignInCommand()));
    const principal = await world.authenticate.execute({ accessToken: here.accessToken });

    counted.writes = 0;
    const eventsBefore = world.store.events.length;
    await world.signOut.execute({ principal, scope: 'others', metadata });

    expect(counted.writes).to.equal(0);
    expect(world.store.events.slice(eventsBefore).map((event) => event.type)).to.deep.equal(['SessionsEnded']);
    const user = await world.ports.users.findById(here.user.id);
    expect((await world.ports.sessions.findByUser(here.user.id, user?.sessionEpoch ?? -1)).map((session) => session.id)).to.deep.equal([principal.sessionId]);
    expect((await world.sessionViews.live(here.user.id, world.ports.clock.now())).map((session) => session.id)).to.deep.equal([principal.sessionId]);
  });
});
