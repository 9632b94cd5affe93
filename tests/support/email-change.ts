import { aHolderProof } from './builders.js';
import type { inMemoryWorld } from './in-memory-world.js';
import { tokenIn } from './mail-world.js';
import { verifiedSignUp } from './verified.js';

type World = Awaited<ReturnType<typeof inMemoryWorld>>;

/** The link token of the newest mail to `to` with this subject, after the outbox delivered what is due. */
export async function mailedTo(world: World, to: string, subject: string): Promise<string> {
  await world.deliverMail.execute();
  return tokenIn(world.mail.delivered.filter((mail) => mail.to === to && mail.subject === subject).at(-1));
}

/** Ada, verified, asks to move to `newEmail`: the tokens of the confirmation (to the new address) and the cancel link (to the old). */
export async function changeRequested(world: World, newEmail = 'countess@lovelace.example') {
  const { signedUp, principal } = await verifiedSignUp(world);
  await world.requestEmailChange.execute({ ...aHolderProof(principal), newEmail });
  return {
    signedUp,
    principal,
    confirm: await mailedTo(world, newEmail, 'Confirm your new e-mail address'),
    cancel: await mailedTo(world, 'ada@example.com', 'Your e-mail address is about to change'),
  };
}
