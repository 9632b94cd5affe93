import { InvalidInput } from '../../../domain/domain-error.js';
import { InvalidCursor } from '../../errors.js';
import type { Ports } from '../../ports/ports.js';
import type { AdminUserResource } from '../../shared/admin.js';

export const ADMIN_PAGE_DEFAULT = 20;
export const ADMIN_PAGE_MAX = 100;
/**
 * Accounts one search by prefix opens at most: those the address index gives as sharing the query's first characters
 * (its indexed length); when more of them do not match, a short page with a cursor rather than more work.
 */
export const ADMIN_SCAN_MAX = 200;
const QUERY_MAX_LENGTH = 254;
// An entry of the directory's index: its time (14 hex digits), U+0001, the account id.
// eslint-disable-next-line no-control-regex -- U+0001 separates the parts of every index entry (store.ts)
const POSITION = /^[0-9a-f]{14}\u0001[A-Za-z0-9_-]{1,80}$/;

export interface AdminListUsersQuery {
  /** An address prefix (any case); empty or absent: every account. */
  readonly query?: string | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
}

export interface AdminUserPage {
  readonly users: readonly AdminUserResource[];
  /** Where the next page starts; null once every account was looked at. */
  readonly nextCursor: string | null;
}

const decodeCursor = (cursor: string): string => {
  const position = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!POSITION.test(position)) throw new InvalidCursor();
  return position;
};

/**
 * The accounts whose address starts with `query`, in the order they were listed (GET /admin/users). Addresses are
 * sealed at rest: the address index gives the accounts sharing the query's first characters without opening any, and
 * the rest of the prefix is compared on each one's opened view. One page opens at most ADMIN_SCAN_MAX accounts and
 * may hold fewer than `limit` while `nextCursor` is set. Throws InvalidInput (`query`), InvalidCursor.
 */
export class AdminListUsersHandler {
  constructor(private readonly deps: Pick<Ports, 'userViews'>) {}

  async execute(request: AdminListUsersQuery): Promise<AdminUserPage> {
    const prefix = (request.query ?? '').trim().toLowerCase();
    if (prefix.length > QUERY_MAX_LENGTH) throw new InvalidInput([{ field: 'query', code: 'TOO_LONG', message: `must be at most ${QUERY_MAX_LENGTH} characters` }]);
    const limit = request.limit ?? ADMIN_PAGE_DEFAULT;
    let after = request.cursor === undefined ? null : decodeCursor(request.cursor);
    const users: AdminUserResource[] = [];
    let scanned = 0;
    while (users.length < limit && scanned < ADMIN_SCAN_MAX) {
      const wanted = Math.min(ADMIN_PAGE_MAX, ADMIN_SCAN_MAX - scanned);
      const entries = prefix === '' ? await this.deps.userViews.directory(after, wanted) : await this.deps.userViews.addressCandidates(prefix, after, wanted);
      for (const entry of entries) {
        scanned += 1;
        after = entry.position;
        const account = await this.deps.userViews.sessionAccountOf(entry.id);
        if (account?.user.email.startsWith(prefix)) users.push({ ...account.user, disabled: account.disabled });
        if (users.length === limit) break;
      }
      if (entries.length < wanted && users.length < limit) return { users, nextCursor: null };
    }
    return { users, nextCursor: after === null ? null : Buffer.from(after, 'utf8').toString('base64url') };
  }
}
