import type { IdentityRepository } from '../../application/social-sign-in/ports/identity-repository.port.js';
import { IDENTITIES_PER_ACCOUNT_MAX } from '../../application/social-sign-in/ports/identity-repository.port.js';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { Limit } from '../../application/ports/attempt-limits.port.js';
import { EmailAlreadyRegistered } from '../../domain/domain-error.js';
import type { User } from '../../domain/user.js';
import { accountMade } from '../storage/store-user.repository.js';
import { type IdentitySnapshot, identityKey } from '../../domain/social-sign-in/identity.js';
import { IDENTITIES, type IdentityRecord, identityKeyOf } from './identity-tables.js';
import { CORE_SCHEMA, type Schema } from '../storage/ownership.js';
import { type RangeBound, type Store, type Stored, put, remove } from '../storage/store.js';

const identityOf = ({ value, version }: Stored<IdentityRecord>): IdentitySnapshot => ({ ...value, version });

/** Provider identities over the storage primitive, the same for every store. */
export class StoreIdentityRepository implements IdentityRepository {
  constructor(
    private readonly store: Store,
    /** The composition's tables: the ways into an account the last-way-in rule sums. */
    private readonly schema: Schema = CORE_SCHEMA,
  ) {}

  async findBySubject(issuer: string, subject: string): Promise<IdentitySnapshot | null> {
    const stored = await this.store.get(IDENTITIES, identityKey(issuer, subject));
    return stored && identityOf(stored);
  }

  async listByUser(userId: string): Promise<IdentitySnapshot[]> {
    return (await this.store.range(IDENTITIES, 'byUser', { prefix: [userId], limit: IDENTITIES_PER_ACCOUNT_MAX })).map(identityOf);
  }

  async findOwn(userId: string, id: string): Promise<IdentitySnapshot | null> {
    return (await this.listByUser(userId)).find((identity) => identity.id === id) ?? null;
  }

  async add(identity: IdentitySnapshot, events: readonly RecordedEvent[]): Promise<'linked' | 'taken' | 'full'> {
    const { version: _version, ...record } = identity;
    const outcome = await this.store.commit({ changes: [put(IDENTITIES, identityKeyOf(record), record, null)], ranges: [rangeOf(identity, { max: IDENTITIES_PER_ACCOUNT_MAX })], events });
    return outcome.status === 'committed' ? 'linked' : outcome.status === 'out_of_range' ? 'full' : 'taken';
  }

  async addWithAccount(user: User, identity: IdentitySnapshot, events: readonly RecordedEvent[], counted: readonly Limit[]): Promise<void> {
    const made = accountMade(this.store, user, events, undefined, counted);
    const { version: _version, ...record } = identity;
    const outcome = await this.store.commit({ ...made, changes: [...made.changes, put(IDENTITIES, identityKeyOf(record), record, null)] });
    if (outcome.status !== 'committed') throw new EmailAlreadyRegistered();
  }

  async remove(identity: IdentitySnapshot, events: readonly RecordedEvent[]): Promise<'removed' | 'changed' | 'last'> {
    const outcome = await this.store.commit({ changes: [remove(IDENTITIES, identityKeyOf(identity), identity.version ?? 0)], atLeast: [this.schema.waysInto(identity.userId)], events });
    return outcome.status === 'committed' ? 'removed' : outcome.status === 'out_of_range' ? 'last' : 'changed';
  }
}

const rangeOf = (identity: IdentitySnapshot, bounds: Pick<RangeBound, 'min' | 'max'>): RangeBound => ({ table: IDENTITIES, index: 'byUser', prefix: [identity.userId], ...bounds });
