import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { PASSKEYS_PER_ACCOUNT_MAX, type PasskeyAddOutcome, type PasskeyRemoveOutcome, type PasskeyRepository } from '../../application/passkeys/ports/passkey-repository.port.js';
import type { Passkey, WebAuthnChallenge } from '../../domain/passkeys/passkey.js';
import { PASSKEYS, WEBAUTHN_CHALLENGES, passkeyOf, passkeyRecordOf } from './passkey-tables.js';
import type { Schema } from '../storage/ownership.js';
import { type RangeBound, type Store, put, remove } from '../storage/store.js';

/** Passkeys and WebAuthn challenges over the storage primitive, the same for every store. */
export class StorePasskeyRepository implements PasskeyRepository {
  constructor(
    private readonly store: Store,
    /** The composition's tables: the ways into an account the last-way-in rule sums. */
    private readonly schema: Schema,
  ) {}

  async find(id: string): Promise<Passkey | null> {
    const stored = await this.store.get(PASSKEYS, id);
    return stored && passkeyOf(stored);
  }

  async listByUser(userId: string): Promise<Passkey[]> {
    return (await this.store.range(PASSKEYS, 'byUser', { prefix: [userId], limit: PASSKEYS_PER_ACCOUNT_MAX })).map(passkeyOf);
  }

  async add(passkey: Passkey, events: readonly RecordedEvent[]): Promise<PasskeyAddOutcome> {
    const outcome = await this.store.commit({ changes: [put(PASSKEYS, passkey.id, passkeyRecordOf(passkey), null)], ranges: [this.range(passkey, { max: PASSKEYS_PER_ACCOUNT_MAX })], events });
    return outcome.status === 'committed' ? 'added' : outcome.status === 'out_of_range' ? 'full' : 'taken';
  }

  async save(passkey: Passkey, events: readonly RecordedEvent[]): Promise<boolean> {
    return this.committed({ changes: [put(PASSKEYS, passkey.id, passkeyRecordOf(passkey), passkey.snapshot().version ?? 0)], events });
  }

  async remove(passkey: Passkey, events: readonly RecordedEvent[]): Promise<PasskeyRemoveOutcome> {
    const outcome = await this.store.commit({ changes: [remove(PASSKEYS, passkey.id, passkey.snapshot().version ?? 0)], atLeast: [this.schema.waysInto(passkey.userId)], events });
    return outcome.status === 'committed' ? 'removed' : outcome.status === 'out_of_range' ? 'last' : 'changed';
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

  /** The account's passkeys, counted in the commit, within these bounds once it is applied. */
  private range(passkey: Passkey, bounds: Pick<RangeBound, 'min' | 'max'>): RangeBound {
    return { table: PASSKEYS, index: 'byUser', prefix: [passkey.userId], ...bounds };
  }

  private async committed(changes: Parameters<Store['commit']>[0]): Promise<boolean> {
    return (await this.store.commit(changes)).status === 'committed';
  }
}
