import { expect } from 'chai';
import { InvalidCredentials } from '../../../domain/domain-error.js';
import { aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn, aHolderProof } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { tokenIn } from '../../../../tests/support/mail-world.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { codeOf } from '../../../../tests/support/totp.js';

const OLD = 'analytical engine 1843';
const NEW = 'difference engine 1822';
const metadata = aRequestMetadata();

type World = Awaited<ReturnType<typeof inMemoryWorld>>;

/** Ada's account brought into one state; returns the password that must work in it and those that must not. */
interface AccountState {
  readonly name: string;
  readonly options?: Parameters<typeof inMemoryWorld>[0];
  prepare(world: World): Promise<{ readonly right: string; readonly alsoWrong?: readonly string[]; readonly challenged?: true }>;
}

const verify = async (world: World) => {
  await world.deliverMail.execute();
  await world.verifyEmail.execute({ token: tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Confirm your e-mail address')), metadata });
};

/** Ada proves her address and confirms an authenticator app (from a new session). */
const enrolTotp = async (world: World) => {
  await verify(world);
  const principal = await world.authenticate.execute({ accessToken: (await completedSignIn(world.signIn.execute(aSignInCommand()))).accessToken });
  const { secret } = await world.enrolTotp.execute(aHolderProof(principal));
  await world.confirmTotp.execute({ principal, code: codeOf(secret, world.clock.now()), metadata });
};

const reset = async (world: World) => {
  await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
  await world.deliverMail.execute();
  const mail = world.mail.delivered.filter((delivered) => delivered.subject === 'Reset your password').at(-1);
  await world.confirmPasswordReset.execute({ token: tokenIn(mail), newPassword: NEW, metadata });
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
    prepare: async (world) => (await reset(world), { right: NEW, alsoWrong: [OLD] }),
  },
  {
    name: 'with a second factor (the right password answers its challenge; a wrong one the same 401)',
    prepare: async (world) => (await enrolTotp(world), { right: OLD, challenged: true }),
  },
  {
    name: 'with a second factor, after a reset (which keeps the factor: sign-in still asks for it)',
    prepare: async (world) => {
      await enrolTotp(world);
      await reset(world);
      return { right: NEW, alsoWrong: [OLD], challenged: true };
    },
  },
];

describe('A wrong password is refused in every state of an account (and the right one still works)', () => {
  for (const state of STATES) {
    it(state.name, async () => {
      const world = await inMemoryWorld(state.options);
      await world.signUp.execute(aSignUpCommand({ password: OLD }));
      const { right, alsoWrong = [], challenged } = await state.prepare(world);
      for (const wrong of ['not the password at all', `${right}x`, right.toUpperCase(), ...alsoWrong]) {
        expect(await rejection(world.signIn.execute(aSignInCommand({ password: wrong }))), wrong).to.be.instanceOf(InvalidCredentials);
      }
      const outcome = await world.signIn.execute(aSignInCommand({ password: right }));
      if (challenged) expect(outcome).to.have.all.keys('mfaToken', 'methods', 'expiresIn');
      else expect((await completedSignIn(Promise.resolve(outcome))).user.email).to.equal('ada@example.com');
    });
  }
});
