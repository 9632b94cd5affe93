import { expect } from 'chai';
import { LastSignInMethod } from '../../errors.js';
import { aRequestMetadata, completedSignIn } from '../../../../tests/support/builders.js';
import { withPasskeys } from '../../../../tests/support/passkeys.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { socialSignIn, throughProvider } from '../../../../tests/support/social.js';
import { codeOf } from '../../../../tests/support/totp.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';

const metadata = aRequestMetadata();
const PASSWORD = 'analytical engine 1843';

describe('ListCredentialsHandler (listCredentials)', () => {
  it('lists every way in of every kind, from the tables\' declarations: the password, a linked identity, a passkey, the confirmed authenticator app (a second factor), in the order of the tables', async () => {
    const { world, principal, userId, register } = await withPasskeys();
    const passkey = await register({}, principal, 'Laptop');
    await throughProvider(world, { subject: 'ada-corp', email: 'ada@corp.example' }, { link: principal });
    const enrolment = await world.enrolTotp.execute({ principal, currentPassword: PASSWORD, metadata });
    expect((await world.listCredentials.execute({ userId })).map((credential) => credential.kind), 'a factor waiting for its first code is no way in yet').to.deep.equal(['password', 'identity', 'passkey']);
    await world.confirmTotp.execute({ principal, code: codeOf(enrolment.secret, world.clock.now()), metadata });
    const [identity] = await world.identities.listByUser(userId);
    expect(await world.listCredentials.execute({ userId })).to.deep.equal([
      { kind: 'password', id: 'password', name: null, createdAt: null, lastUsedAt: null, signsIn: true, lastWayIn: false },
      { kind: 'identity', id: identity?.id, name: 'corp', createdAt: identity?.createdAt, lastUsedAt: null, signsIn: true, lastWayIn: false },
      { kind: 'passkey', id: passkey.id, name: 'Laptop', createdAt: passkey.createdAt, lastUsedAt: null, signsIn: true, lastWayIn: false },
      { kind: 'totp', id: 'totp', name: null, createdAt: world.clock.now(), lastUsedAt: null, signsIn: false, lastWayIn: false },
    ]);
  });

  it('marks the only first factor as the last way in, the one the rule refuses to remove; a second factor never is', async () => {
    const world = await inMemoryWorld();
    const signedIn = await completedSignIn(socialSignIn(world, { subject: 'ada-1', email: 'ada@example.com' }));
    const listed = await world.listCredentials.execute({ userId: signedIn.user.id });
    const [identity] = await world.identities.listByUser(signedIn.user.id);
    expect(listed.map(({ kind, id, signsIn, lastWayIn }) => ({ kind, id, signsIn, lastWayIn }))).to.deep.equal([{ kind: 'identity', id: identity?.id, signsIn: true, lastWayIn: true }]);
    const principal = await world.authenticate.execute({ accessToken: signedIn.accessToken });
    expect(await rejection(world.unlinkIdentity.execute({ principal, id: identity?.id ?? '', metadata }))).to.be.instanceOf(LastSignInMethod);
  });

  it('lists nothing for an unknown account', async () => {
    const world = await inMemoryWorld();
    expect(await world.listCredentials.execute({ userId: 'nobody' })).to.deep.equal([]);
  });
});
