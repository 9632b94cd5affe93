import type { AccountRecords, CredentialView, SessionAccount, UserReadModel, UserView } from '../../application/ports/user-read-model.port.js';
import { CORE_SCHEMA, type Schema } from './ownership.js';
import type { PageRequest } from '../../application/ports/event-log.port.js';
import type { SessionReadModel, SessionView, SessionViewPage } from '../../application/ports/session-read-model.port.js';
import { endOf } from '../../domain/session.js';
import { decodeSessionCursor, encodeSessionCursor } from '../cursor.js';
import { DIRECTORY } from './directory-tables.js';
import { ADDRESS_INDEX, indexListedAccounts, lengthFor, prefixIndexName, termOf } from './address-index.js';
import { ACCOUNT_VIEWS, type AccountView, SESSIONS, type SessionRecord } from './account-tables.js';
import { type Store, type Stored, encodeIndexKey, entryOf } from './store.js';

/** Accounts listed since the last search that one search indexes at most before it looks (address-index.ts). */
export const INDEXED_PER_SEARCH = 100;

// The query side over the storage primitive: account and session views, one record read by key where it can, never an
// aggregate and never a hash.

/** The public user resource of an account, from its view (on the path of every bearer request and refresh). */
export const userViewOf = (id: string, { name, lastname, email, emailVerified }: AccountView): UserView => ({ id, name, lastname, email, emailverified: emailVerified });

/** Public user views from the account views (ACCOUNT_VIEWS), which hold no hash: one record read. */
export class StoreUserReadModel implements UserReadModel {
  constructor(
    private readonly store: Store,
    /** The composition's tables: what the export shows. */
    private readonly schema: Schema = CORE_SCHEMA,
  ) {}

  async findById(id: string): Promise<UserView | null> {
    const stored = await this.store.get(ACCOUNT_VIEWS, id);
    return stored && userViewOf(id, stored.value);
  }

  async sessionAccountOf(id: string): Promise<SessionAccount | null> {
    const stored = await this.store.get(ACCOUNT_VIEWS, id);
    return stored && { user: userViewOf(id, stored.value), sessionEpoch: stored.value.sessionEpoch, disabled: stored.value.disabled === true };
  }

  /** Walks the tables' declarations (`exportedRecordsOf`): a new kind of account state is exported by its declaration. */
  recordsOf(id: string): Promise<AccountRecords> {
    return this.schema.exportedRecordsOf(this.store, id);
  }

  /** Walks the tables' declarations (`credentialsOf`): a new kind of way in is listed by its declaration. */
  credentialsOf(id: string): Promise<readonly CredentialView[]> {
    return this.schema.credentialsOf(this.store, id);
  }

  async directory(after: string | null, limit: number): Promise<readonly { readonly id: string; readonly position: string }[]> {
    const page = await this.store.range(DIRECTORY, 'byListing', { prefix: [], ...(after === null ? {} : { after }), limit });
    return page.map((entry) => ({ id: entry.value.userId, position: entryOf([entry.value.listedAt], entry.key) }));
  }

  /** Through the address index: the candidates share the query's first `lengthFor(query)` characters; none is opened. */
  async addressCandidates(query: string, after: string | null, limit: number): Promise<readonly { readonly id: string; readonly position: string }[]> {
    await indexListedAccounts(this.store, INDEXED_PER_SEARCH);
    const term = termOf(this.store, query);
    const from = after === null ? {} : { after: `${encodeIndexKey([term])}\u0001${after}` };
    const page = await this.store.range(ADDRESS_INDEX, prefixIndexName(lengthFor(query)), { prefix: [term], ...from, limit });
    return page.map((entry) => ({ id: entry.value.userId, position: entryOf([entry.value.listedAt], entry.key) }));
  }
}

const viewOf = ({ id, createdAt, lastUsedAt, expiresAt, clientIp, userAgent }: SessionRecord): SessionView => ({ id, createdAt, lastUsedAt, expiresAt, clientIp, userAgent });

const isLive = (session: SessionRecord, now: Date, epoch: number): boolean =>
  session.revokedAt === null && endOf(session).getTime() > now.getTime() && (session.epoch ?? 0) === epoch;

/**
 * Live sessions read from the query side's records: the account's view (its session epoch; no hash) and the session
 * records, which hold no secret either (refresh tokens are derived, never stored). Never reads an aggregate.
 */
export class StoreSessionReadModel implements SessionReadModel {
  constructor(private readonly store: Store) {}

  /** Two records read by key, at once: the session and its account's view. */
  async liveSessionAccount(sessionId: string, userId: string, now: Date): Promise<UserView | null> {
    // The session's address and device are not shown here: left sealed (only the account's view is opened).
    const [session, account] = await Promise.all([this.store.get(SESSIONS, sessionId, { personal: false }), this.store.get(ACCOUNT_VIEWS, userId)]);
    const live = session !== null && account !== null && session.value.userId === userId && isLive(session.value, now, account.value.sessionEpoch);
    return live ? userViewOf(userId, account.value) : null;
  }

  async page(userId: string, now: Date, page: PageRequest): Promise<SessionViewPage> {
    const position = page.cursor === null ? null : decodeSessionCursor(page.cursor);
    const epoch = await this.epochOf(userId);
    if (epoch === null) return { sessions: [], nextCursor: null };
    const after = position && entryOf([userId, epoch, position.createdAt], position.id);
    const found = await this.store.range(SESSIONS, 'liveByCreation', { prefix: [userId, epoch], ...(after === null ? {} : { after }), limit: page.limit + 1, reverse: true });
    const shown = found.slice(0, page.limit);
    const last = shown.at(-1)?.value;
    return {
      sessions: shown.filter((stored) => isLive(stored.value, now, epoch)).map((stored) => viewOf(stored.value)),
      nextCursor: found.length > page.limit && last ? encodeSessionCursor({ createdAt: last.createdAt.getTime(), id: last.id }) : null,
    };
  }

  async live(userId: string, now: Date): Promise<SessionView[]> {
    const epoch = await this.epochOf(userId);
    if (epoch === null) return [];
    const found: Stored<SessionRecord>[] = await this.store.range(SESSIONS, 'liveByCreation', { prefix: [userId, epoch], limit: Number.MAX_SAFE_INTEGER, reverse: true });
    return found.filter((stored) => isLive(stored.value, now, epoch)).map((stored) => viewOf(stored.value));
  }

  private async epochOf(userId: string): Promise<number | null> {
    return (await this.store.get(ACCOUNT_VIEWS, userId))?.value.sessionEpoch ?? null;
  }
}
