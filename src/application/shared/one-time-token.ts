import type { User } from '../../domain/user.js';
import { type Parsed, invalid, rawText, requireAll, valid } from '../../domain/validation.js';
import type { OneTimePurpose, OneTimeTokens } from '../ports/one-time-tokens.port.js';
import type { Ports } from '../ports/ports.js';

const REFUSED = 'is invalid, expired or already used';

/**
 * Reads a mailed one-time token for `purpose` and the account it belongs to. Valid only when it parses, its account
 * exists, it matches the account's current binding (so a changed password or address, or a use, kills it) and it is
 * younger than `ttlSeconds`. Every refusal is the same issue on field `token`.
 */
export async function redeem(
  deps: Pick<Ports, 'users' | 'oneTimeTokens' | 'clock'>,
  purpose: OneTimePurpose,
  raw: unknown,
  ttlSeconds: number,
): Promise<Parsed<User>> {
  const text = rawText('token', raw === '' ? undefined : raw);
  if (!text.ok) return text;
  const claim = deps.oneTimeTokens.read(text.value);
  if (!claim || claim.purpose !== purpose) return invalid('token', 'INVALID_OR_EXPIRED', REFUSED);
  const user = await deps.users.findById(claim.userId);
  if (!user || !deps.oneTimeTokens.matches(text.value, bindingOf(deps.oneTimeTokens, purpose, user))) return invalid('token', 'INVALID_OR_EXPIRED', REFUSED);
  const age = deps.clock.now().getTime() - claim.issuedAt.getTime();
  return age >= 0 && age <= ttlSeconds * 1000 ? valid(user) : invalid('token', 'INVALID_OR_EXPIRED', REFUSED);
}

/**
 * The account of a verification link whose address is still unproved (confirm, or "not me"): a verified address
 * makes the link spent, the same issue on `token` as any other refusal. Throws InvalidInput.
 */
export async function redeemUnverified(deps: Pick<Ports, 'users' | 'oneTimeTokens' | 'clock'>, raw: unknown, ttlSeconds: number): Promise<User> {
  const account = await redeem(deps, 'verify', raw, ttlSeconds);
  return requireAll({ user: account.ok && account.value.emailVerified ? invalid<User>('token', 'INVALID_OR_EXPIRED', REFUSED) : account }).user;
}

export const bindingOf = (tokens: OneTimeTokens, purpose: OneTimePurpose, user: User): string =>
  tokens.bindingFor(purpose, { id: user.id, email: user.email.value, passwordHash: user.passwordHash });
