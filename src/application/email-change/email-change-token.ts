import { type PendingEmailChange, changeStillPending } from '../../domain/email-change/email-change.js';
import { InvalidInput } from '../../domain/domain-error.js';
import type { User } from '../../domain/user.js';
import { rawText, requireAll } from '../../domain/validation.js';
import type { EmailChangePorts } from './ports/email-change-ports.js';

const REFUSED = 'is invalid, expired or already used';

/** The one refusal of a change-of-address link, whatever the reason (it tells nobody about any other account). */
export const refusedLink = (): InvalidInput => new InvalidInput([{ field: 'token', code: 'INVALID_OR_EXPIRED', message: REFUSED }]);

/**
 * The account and its pending change that a change-of-address link (`email-change` to confirm, `email-cancel` to
 * cancel) was mailed for: valid only while that very change is pending on the address it was asked from, in the session
 * epoch it was asked in (a password change, a reset or a sign-out everywhere ends it), and younger than `ttlSeconds`. Throws InvalidInput on `token` (the same issue for every refusal).
 */
export async function redeemEmailChange(
  deps: Pick<EmailChangePorts, 'users' | 'emailChanges' | 'oneTimeTokens' | 'clock'>,
  purpose: 'email-change' | 'email-cancel',
  raw: unknown,
  ttlSeconds: number,
): Promise<{ readonly user: User; readonly pending: PendingEmailChange }> {
  const { token } = requireAll({ token: rawText('token', raw === '' ? undefined : raw) });
  const claim = deps.oneTimeTokens.read(token);
  if (!claim || claim.purpose !== purpose) throw refusedLink();
  const user = await deps.users.findById(claim.userId);
  const pending = user && (await deps.emailChanges.pendingOf(user.id));
  if (!user || !pending || !changeStillPending(pending, user.sessionEpoch)) throw refusedLink();
  const binding = deps.oneTimeTokens.bindingFor(purpose, { id: user.id, email: user.email.value, passwordHash: user.passwordHash, newEmail: pending.newEmail });
  const age = deps.clock.now().getTime() - claim.issuedAt.getTime();
  if (!deps.oneTimeTokens.matches(token, binding) || age < 0 || age > ttlSeconds * 1000) throw refusedLink();
  return { user, pending };
}
