import { expect } from 'chai';
import { InvalidCredentials } from '../../../domain/domain-error.js';
import { aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { tokenIn } from '../../../../tests/support/mail-world.js';
import { rejection } from '../../../../tests/support/rejection.js';

const OLD = 'analytical engine 1843';
const NEW = 'difference engine 1822';
const metadata = aRequestMetadata();

type World = Awaited<ReturnType<typeof inMemoryWorld>>;

/** Ada's account brought into one state; returns the password that must work in it and those that must not. */
interface AccountState {
  readonly name: string;
  readonly options?: Parameters<typeof inMemoryWorld>[0];
  prepare(world: World): Promise<{ readonly right: string; readonly alsoWrong?: readonly string[] }>;
}

const verify = async (world: World) => {
  await world.deliverMail.execute();
  await world.verifyEmail.execute({ token: tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Confirm your e-mail address')), metadata });
};

const STATES: readonly AccountState[] = [
  { name: 'just signed up, unverified', prepare: () => Promise.resolve({ right: OLD }) },
  { name: 'verified', prepare: async (world) => (await verify(world), { right: OLD }) },
  {
    name: 'verified, its hash due for a rehash',
    prepare: async (world) => {
      await verify(world);
      world.hasher.version = 2;
      return { right: OLD };
    },
  },
  {
    name: 'at the session cap',
    options: { sessions: { maxPerAccount: 2 } },
    prepare: async (world) => {
      for (let i = 0; i < 2; i++) await completedSignIn(world.signIn.execute(aSignInCommand()));
      return { right: OLD };
    },
  },
  {
    name: 'after a profile change',
    prepare: async (world) => {
      await world.changeProfile.execute({ userId: 'id-1', name: 'Augusta', lastname: 'King', metadata });
      return { right: OLD };
    },
  },
  {
    name: 'after a password change',
    prepare: async (world) => {
      const signedIn = await completedSignIn(world.signIn.execute(aSignInCommand()));
      const principal = await world.authenticate.execute({ accessToken: signedIn.accessToken });
      await world.changePassword.execute({ principal, currentPassword: OLD, newPassword: NEW, metadata });
      return { right: NEW, alsoWrong: [OLD] };
    },
  },
  {
    name: 'after a reset (which also verified the address)',
    prepare: async (world) => {
      await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
      await world.deliverMail.execute();
      await world.confirmPasswordReset.execute({ token: tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Reset your password')), newPassword: NEW, metadata });
      return { right: NEW, alsoWrong: [OLD] };
    },
  },
  // With a second factor enrolled: added with issue 36 (TOTP), which brings that state.
];

describe('A wrong password is refused in every state of an account (and the right one still works)', () => {
  for (const state of STATES) {
    it(state.name, async () => {
      const world = await inMemoryWorld(state.options);
      await world.signUp.execute(aSignUpCommand({ password: OLD }));
      const { right, alsoWrong = [] } = await state.prepare(world);
      for (const wrong of ['not the password at all', `${right}x`, right.toUpperCase(), ...alsoWrong]) {
        expect(await rejection(completedSignIn(world.signIn.execute(aSignInCommand({ password: wrong })))), wrong).to.be.instanceOf(InvalidCredentials);
      }
      expect((await completedSignIn(world.signIn.execute(aSignInCommand({ password: right })))).user.email).to.equal('ada@example.com');
    });
  }
});
