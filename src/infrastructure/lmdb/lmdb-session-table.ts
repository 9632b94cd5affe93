import type { Database, Key, RootDatabase } from 'lmdb';
import type { SessionSnapshot } from '../../domain/session.js';

type DatesAsNumbers<T> = { readonly [K in keyof T]: T[K] extends Date ? number : T[K] extends Date | null ? number | null : T[K] };

/** A session as stored: its snapshot with instants as epoch milliseconds. */
export type StoredSession = DatesAsNumbers<SessionSnapshot>;

export const toStoredSession = (s: SessionSnapshot, version: number): StoredSession => ({
  ...s,
  createdAt: s.createdAt.getTime(),
  lastUsedAt: s.lastUsedAt.getTime(),
  absoluteExpiresAt: s.absoluteExpiresAt.getTime(),
  expiresAt: s.expiresAt.getTime(),
  rotatedAt: s.rotatedAt?.getTime() ?? null,
  revokedAt: s.revokedAt?.getTime() ?? null,
  version,
});

/** When a stored session ended or ends (see `endOf` in the domain): the sweep's key. */
const endOfStored = (s: StoredSession): number => (s.revokedAt !== null && s.revokedAt < s.expiresAt ? s.revokedAt : s.expiresAt);

/** The layout of the session indexes; an environment written with an older one is re-indexed when opened. */
export const SESSION_INDEX_VERSION = 3;

type LiveKey = [userId: string, epoch: number, at: number, id: string];

/** The range of a user's live-index keys of one session epoch. */
export const epochRange = (userId: string, epoch: number) => ({ start: [userId, epoch, 0], end: [userId, epoch, Number.MAX_SAFE_INTEGER] });

/**
 * The sessions of an LMDB environment and their indexes. Per user and session epoch, only the sessions that are not
 * revoked (so per-account reads, which read the account's current epoch, never walk ended ones): by creation
 * (listing) and by last use (the cap). Every session by when it ended or ends (the sweep), a revoked one at its
 * revocation. The accounts whose epoch moved on while older-epoch sessions remain (`endedEpochs`, drained by the
 * sweep). The write methods run inside the caller's transaction.
 */
export class LmdbSessionTable {
  readonly records: Database<StoredSession, string>;
  /** [userId, epoch, createdAt, id] of the sessions not revoked. */
  readonly liveByUser: Database<null, LiveKey>;
  /** [userId, epoch, lastUsedAt, id] of the sessions not revoked. */
  readonly liveByUse: Database<null, LiveKey>;
  /** The ids of the accounts whose session epoch moved on, while sessions of an older epoch may remain. */
  readonly endedEpochs: Database<null, string>;
  /** [endsAt, id] of every session. */
  readonly byEnd: Database<null, [number, string]>;
  /** The per-user index of every session, revoked ones included, before SESSION_INDEX_VERSION 2: emptied by reindex(). */
  private readonly byUserV1: Database<null, [string, string]>;

  constructor(root: RootDatabase) {
    this.records = root.openDB<StoredSession, string>({ name: 'sessions' });
    this.liveByUser = root.openDB<null, LiveKey>({ name: 'live-sessions-by-user' });
    this.liveByUse = root.openDB<null, LiveKey>({ name: 'live-sessions-by-use' });
    this.endedEpochs = root.openDB<null, string>({ name: 'sessions-ended-epochs' });
    this.byEnd = root.openDB<null, [number, string]>({ name: 'sessions-by-expiry' });
    this.byUserV1 = root.openDB<null, [string, string]>({ name: 'sessions-by-user' });
  }

  /** Writes a session and its index entries; `previous`, the state it replaces, has its entries removed first. */
  put(stored: StoredSession, previous?: StoredSession): void {
    if (previous) this.unindex(previous);
    void this.records.put(stored.id, stored);
    this.index(stored);
  }

  /**
   * Compare-and-swap: stores each snapshot at its version + 1 only if every stored version is still the snapshot's,
   * and returns true; returns false, writing nothing, otherwise.
   */
  swap(snapshots: readonly SessionSnapshot[]): boolean {
    const current = snapshots.map((snapshot) => this.records.get(snapshot.id));
    if (snapshots.some((snapshot, i) => current[i]?.version !== snapshot.version)) return false;
    snapshots.forEach((snapshot, i) => this.put(toStoredSession(snapshot, snapshot.version + 1), current[i]));
    return true;
  }

  /** Deletes a session and its index entries. */
  remove(stored: StoredSession): void {
    this.unindex(stored);
    void this.records.remove(stored.id);
  }

  /** The sweep's key of a stored session: [when it ended or ends, id]. */
  endKeyOf(stored: StoredSession): [number, string] {
    return [endOfStored(stored), stored.id];
  }

  /**
   * Removes at most `limit` sessions not revoked of an epoch older than `currentEpoch` of the user `userId`, and
   * returns how many; when fewer were left, the user leaves `endedEpochs`.
   */
  removeEndedEpochs(userId: string, currentEpoch: number, limit: number): number {
    const keys = [...this.liveByUser.getKeys({ start: [userId, -1], end: [userId, currentEpoch], limit })];
    for (const [, , , id] of keys) {
      const stored = this.records.get(id);
      if (stored) this.remove(stored);
    }
    if (keys.length < limit) void this.endedEpochs.remove(userId);
    return keys.length;
  }

  /** Empties every session index (the old one included) and rebuilds them from the records. */
  reindex(): void {
    for (const db of [this.byUserV1, this.byEnd, this.liveByUser, this.liveByUse] as Database<null, Key>[]) {
      for (const key of [...db.getKeys()]) void db.remove(key);
    }
    for (const { value } of this.records.getRange()) this.index(value);
  }

  private index(stored: StoredSession): void {
    void this.byEnd.put(this.endKeyOf(stored), null);
    if (stored.revokedAt !== null) return;
    void this.liveByUser.put([stored.userId, stored.epoch ?? 0, stored.createdAt, stored.id], null);
    void this.liveByUse.put([stored.userId, stored.epoch ?? 0, stored.lastUsedAt, stored.id], null);
  }

  private unindex(stored: StoredSession): void {
    void this.byEnd.remove(this.endKeyOf(stored));
    void this.liveByUser.remove([stored.userId, stored.epoch ?? 0, stored.createdAt, stored.id]);
    void this.liveByUse.remove([stored.userId, stored.epoch ?? 0, stored.lastUsedAt, stored.id]);
  }
}
