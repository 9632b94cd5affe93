import { UserNotFound } from '../../errors.js';
import type { Ports } from '../../ports/ports.js';
import type { SessionView } from '../../ports/session-read-model.port.js';
import type { AccountRecords, MfaStatus } from '../../ports/user-read-model.port.js';
import type { AdminUserResource } from '../../shared/admin.js';

export interface AdminUserDetails {
  readonly user: AdminUserResource;
  readonly sessions: readonly SessionView[];
  readonly secondFactor: MfaStatus;
  /** Its passkeys, linked identities, factor and pending change of address, as the account's export shows them. */
  readonly records: AccountRecords;
}

/** One account as an operator sees it (GET /admin/users/:id): never a secret, a hash or a code. Throws UserNotFound. */
export class AdminGetUserHandler {
  constructor(private readonly deps: Pick<Ports, 'userViews' | 'sessionViews' | 'mfaStatus' | 'clock'>) {}

  async execute(query: { readonly userId: string }): Promise<AdminUserDetails> {
    const { userViews, sessionViews, mfaStatus, clock } = this.deps;
    const account = await userViews.sessionAccountOf(query.userId);
    if (!account) throw new UserNotFound();
    const [sessions, secondFactor, records] = await Promise.all([sessionViews.live(query.userId, clock.now()), mfaStatus.statusOf(query.userId), userViews.recordsOf(query.userId)]);
    return { user: { ...account.user, disabled: account.disabled }, sessions, secondFactor, records };
  }
}
