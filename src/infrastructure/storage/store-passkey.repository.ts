import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { PASSKEYS_PER_ACCOUNT_MAX, type PasskeyAddOutcome, type PasskeyRemoveOutcome, type PasskeyRepository } from '../../application/ports/passkey-repository.port.js';
import type { Passkey, WebAuthnChallenge } from '../../domain/passkey.js';
import { PASSKEYS, PASSKEY_COUNTS, WEBAUTHN_CHALLENGES, passkeyOf, passkeyRecordOf } from './passkey-tables.js';
import { type Store, put, remove } from './store.js';

/** Passkeys and WebAuthn challenges over the storage primitive, the same for every store. */
export class StorePasskeyRepository implements PasskeyRepository {
  constructor(private readonly store: Store) {}

  async find(id: string): Promise<Passkey | null> {
    const stored = await this.store.get(PASSKEYS, id);
    return stored && passkeyOf(stored);
  }

  async listByUser(userId: string): Promise<Passkey[]> {
    return (await this.store.range(PASSKEYS, 'byUser', { prefix: [userId], limit: PASSKEYS_PER_ACCOUNT_MAX })).map(passkeyOf);
  }

  async add(passkey: Passkey, events: readonly RecordedEvent[]): Promise<PasskeyAddOutcome> {
    const held = await this.countOf(passkey.userId);
    if (held.count >= PASSKEYS_PER_ACCOUNT_MAX) return 'full';
    const counted = put(PASSKEY_COUNTS, passkey.userId, { count: held.count + 1 }, held.version);
    if (await this.committed({ changes: [put(PASSKEYS, passkey.id, passkeyRecordOf(passkey), null), counted], events })) return 'added';
    return (await this.store.get(PASSKEYS, passkey.id)) ? 'taken' : 'changed';
  }

  async save(passkey: Passkey, events: readonly RecordedEvent[]): Promise<boolean> {
    return this.committed({ changes: [put(PASSKEYS, passkey.id, passkeyRecordOf(passkey), passkey.snapshot().version ?? 0)], events });
  }

  async remove(passkey: Passkey, events: readonly RecordedEvent[], othersKept = 0): Promise<PasskeyRemoveOutcome> {
    const held = await this.countOf(passkey.userId);
    if (held.count - 1 < othersKept) return 'last';
    const counted = put(PASSKEY_COUNTS, passkey.userId, { count: Math.max(0, held.count - 1) }, held.version);
    return (await this.committed({ changes: [remove(PASSKEYS, passkey.id, passkey.snapshot().version ?? 0), counted], events })) ? 'removed' : 'changed';
  }

  async record(events: readonly RecordedEvent[]): Promise<void> {
    await this.store.commit({ events });
  }

  async openChallenge(challenge: WebAuthnChallenge): Promise<void> {
    const { version: _version, ...record } = challenge;
    await this.store.commit({ changes: [put(WEBAUTHN_CHALLENGES, challenge.challenge, record, null)] });
  }

  async takeChallenge(challenge: string, purpose: WebAuthnChallenge['purpose'], at: Date): Promise<WebAuthnChallenge | null> {
    const stored = await this.store.get(WEBAUTHN_CHALLENGES, challenge);
    if (!stored || stored.value.purpose !== purpose || stored.value.expiresAt.getTime() <= at.getTime()) return null;
    return (await this.committed({ changes: [remove(WEBAUTHN_CHALLENGES, challenge, stored.version)] })) ? { ...stored.value, version: stored.version } : null;
  }

  /** The account's passkey count and the version its record is at (null: none yet, counted on the index). */
  private async countOf(userId: string): Promise<{ readonly count: number; readonly version: number | null }> {
    const stored = await this.store.get(PASSKEY_COUNTS, userId);
    return stored ? { count: stored.value.count, version: stored.version } : { count: await this.store.count(PASSKEYS, 'byUser', [userId]), version: null };
  }

  private async committed(changes: Parameters<Store['commit']>[0]): Promise<boolean> {
    return (await this.store.commit(changes)).status === 'committed';
  }
}
