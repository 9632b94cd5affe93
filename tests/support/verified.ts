import type { SignUpCommand } from '../../src/application/use-cases/sign-up/sign-up.handler.js';
import { aRequestMetadata, aSignUpCommand } from './builders.js';
import type { inMemoryWorld } from './in-memory-world.js';

type World = Awaited<ReturnType<typeof inMemoryWorld>>;

/**
 * Proves the address of account `userId` as its owner would, through VerifyEmail, with the token the verification
 * mail would carry (issued by the world's one-time-token port, so no mail is delivered and none is counted).
 */
export async function verifyAddress(world: World, userId: string): Promise<void> {
  const user = await world.users.findById(userId);
  if (!user) throw new Error(`no account ${userId}`);
  const binding = world.oneTimeTokens.bindingFor('verify', { id: user.id, email: user.email.value, passwordHash: user.passwordHash });
  const token = world.oneTimeTokens.issue({ purpose: 'verify', userId, issuedAt: world.clock.now() }, binding);
  await world.verifyEmail.execute({ token, metadata: aRequestMetadata() });
}

/** A sign-up whose address is then proven, and the principal of its session (authenticated after the proof). */
export async function verifiedSignUp(world: World, command: SignUpCommand = aSignUpCommand()) {
  const signedUp = await world.signUp.execute(command);
  await verifyAddress(world, signedUp.user.id);
  const principal = await world.authenticate.execute({ accessToken: signedUp.accessToken });
  return { signedUp, principal, password: command.password };
}
