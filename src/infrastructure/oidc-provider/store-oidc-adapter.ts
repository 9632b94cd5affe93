import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { type Change, type Store, type Stored, put, remove } from '../storage/store.js';
import { OIDC_ACCOUNT_STATE, OIDC_CLIENTS, OIDC_STATE, type OidcRecord } from './oidc-tables.js';

/** What the engine stores: a JSON object, some of whose fields it looks records up by. */
export type OidcPayload = Record<string, unknown> & {
  readonly accountId?: string;
  readonly grantId?: string;
  readonly uid?: string;
  readonly userCode?: string;
  readonly client_secret?: string;
  consumed?: number;
};

/** Raised by `consume` for a record consumed already: the engine answers it as its own (invalid_grant). */
export type ConsumedError = new (description: string) => Error;

/**
 * The account's session epoch (it moves when every session of the account ends: a sign-out everywhere, a password
 * change or reset, an operator's sign-out or disable), or null when there is no account to sign in to any more
 * (deleted, or disabled).
 */
export type AccountEpoch = (accountId: string) => Promise<number | null>;

const CLIENT = 'Client';
const SEALED_PREFIX = 'sealed:v1:';

/** The lookup key of an engine id: a hash, so that no presentable token, code or user code is ever stored. */
export const lookupKey = (model: string, id: string): string => createHash('sha256').update(`${model}\u0000${id}`).digest('base64url');

/**
 * A client secret at rest: AES-256-GCM under a key derived from the service's secret (`oidc-client-secret-v1`); the
 * engine compares the secret a client presents with the one it reads back, so it is sealed, not hashed.
 */
export class ClientSecretBox {
  constructor(private readonly key: Buffer) {}

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  open(value: string): string {
    if (!value.startsWith(SEALED_PREFIX)) return value;
    const bytes = Buffer.from(value.slice(SEALED_PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/**
 * oidc-provider's storage (its Adapter interface) over the project's store, one instance per model: each record in
 * the table its owner says (a registered client; the state of a signed-in account; the state before anyone signed
 * in), keyed and indexed by hashes of the engine's ids, expiring when the engine says. `consume` is a conditional
 * write: of two requests spending one code at once, one wins and the other is answered as a used code.
 */
export class StoreOidcAdapter {
  constructor(
    private readonly store: Store,
    private readonly model: string,
    private readonly secrets: ClientSecretBox,
    private readonly consumedError: ConsumedError,
    private readonly accountEpoch: AccountEpoch,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Writes the engine's record. One of an account (a session at the pages, a grant, a code, a token) carries the
   * account's session epoch from when it was first written, kept when the engine writes it again: it lives only
   * while the account's epoch is that one (`live`).
   */
  async upsert(id: string, payload: OidcPayload, expiresIn?: number): Promise<void> {
    const key = lookupKey(this.model, id);
    let record = this.recordOf(payload, expiresIn);
    const table = this.tableOf(record);
    const stale = table === OIDC_ACCOUNT_STATE ? await this.store.get(OIDC_STATE, key) : null;
    if (record.accountId !== undefined) {
      const written = await this.store.get(OIDC_ACCOUNT_STATE, key);
      const kept = written?.value.accountId === record.accountId ? written.value.epoch : undefined;
      record = { ...record, epoch: kept ?? (await this.accountEpoch(record.accountId)) ?? -1 };
    }
    await this.commit([put(table, key, record, 'any'), ...(stale ? [remove(OIDC_STATE, key, stale.version)] : [])]);
  }

  async find(id: string): Promise<OidcPayload | undefined> {
    const found = await this.stored(lookupKey(this.model, id));
    return found && (await this.live(found.value)) ? this.payloadOf(found.value) : undefined;
  }

  async findByUid(uid: string): Promise<OidcPayload | undefined> {
    return this.findBy('byUid', lookupKey(this.model, uid));
  }

  async findByUserCode(userCode: string): Promise<OidcPayload | undefined> {
    return this.findBy('byUserCode', lookupKey(this.model, userCode));
  }

  async consume(id: string): Promise<void> {
    const found = await this.stored(lookupKey(this.model, id));
    if (!found) return;
    if (this.payloadOf(found.value)?.consumed !== undefined) throw new this.consumedError('already consumed');
    const record: OidcRecord = { ...found.value, payload: JSON.stringify({ ...JSON.parse(found.value.payload), consumed: Math.floor(this.now() / 1000) }) };
    const outcome = await this.store.commit({ changes: [put(this.tableOf(record), found.key, record, found.version)] });
    if (outcome.status !== 'committed') throw new this.consumedError('already consumed');
  }

  async destroy(id: string): Promise<void> {
    const found = await this.stored(lookupKey(this.model, id));
    if (found) await this.commit([remove(this.tableOf(found.value), found.key, 'any')]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const grant = lookupKey('Grant', grantId);
    for (const table of [OIDC_ACCOUNT_STATE, OIDC_STATE]) {
      for (;;) {
        const page = await this.store.range(table, 'byGrant', { prefix: [grant], limit: 100 });
        if (page.length === 0) break;
        await this.commit(page.map((stored) => remove(table, stored.key, 'any')));
        if (page.length < 100) break;
      }
    }
  }

  /** A live grant of the account to the app (any of them), from any session: what consent it holds. */
  async grantOf(accountId: string, clientId: string): Promise<OidcPayload | undefined> {
    for (const found of await this.store.range(OIDC_ACCOUNT_STATE, 'grantsOf', { prefix: [accountId, clientId], limit: 20 })) {
      const payload = (await this.live(found.value)) ? this.payloadOf(found.value) : undefined;
      if (payload) return payload;
    }
    return undefined;
  }

  private async findBy(index: 'byUid' | 'byUserCode', value: string): Promise<OidcPayload | undefined> {
    for (const table of [OIDC_ACCOUNT_STATE, OIDC_STATE]) {
      const [found] = await this.store.range(table, index, { prefix: [value], limit: 1 });
      if (found && found.value.model === this.model) return (await this.live(found.value)) ? this.payloadOf(found.value) : undefined;
    }
    return undefined;
  }

  /**
   * One account, one truth: a record of an account whose sessions all ended since it was written (its epoch moved),
   * or of an account deleted or disabled, is no record: its session at the pages, its grants and their tokens end
   * with the account's own sessions (the engine then answers login_required, invalid_grant, an inactive token, 401).
   */
  private async live(record: OidcRecord): Promise<boolean> {
    if (record.accountId === undefined || record.epoch === undefined) return true;
    return (await this.accountEpoch(record.accountId)) === record.epoch;
  }

  private async stored(key: string): Promise<Stored<OidcRecord> | null> {
    if (this.model === CLIENT) return this.store.get(OIDC_CLIENTS, key);
    return (await this.store.get(OIDC_ACCOUNT_STATE, key)) ?? (await this.store.get(OIDC_STATE, key));
  }

  private tableOf(record: OidcRecord) {
    if (record.model === CLIENT) return OIDC_CLIENTS;
    return record.accountId === undefined ? OIDC_STATE : OIDC_ACCOUNT_STATE;
  }

  private recordOf(payload: OidcPayload, expiresIn: number | undefined): OidcRecord {
    const stored = this.model === CLIENT && typeof payload.client_secret === 'string' ? { ...payload, client_secret: this.secrets.seal(payload.client_secret) } : payload;
    return {
      model: this.model,
      payload: JSON.stringify(stored),
      expiresAt: expiresIn === undefined ? null : this.now() + expiresIn * 1000,
      ...(typeof payload.accountId === 'string' ? { accountId: payload.accountId } : {}),
      ...(this.model === 'Grant' && typeof payload['clientId'] === 'string' ? { clientId: payload['clientId'] } : {}),
      ...(typeof payload.grantId === 'string' ? { grantId: lookupKey('Grant', payload.grantId) } : {}),
      ...(typeof payload.uid === 'string' ? { uid: lookupKey(this.model, payload.uid) } : {}),
      ...(typeof payload.userCode === 'string' ? { userCode: lookupKey(this.model, payload.userCode) } : {}),
    };
  }

  private payloadOf(record: OidcRecord): OidcPayload | undefined {
    if (record.expiresAt !== null && record.expiresAt <= this.now()) return undefined;
    const payload = JSON.parse(record.payload) as OidcPayload;
    return typeof payload.client_secret === 'string' ? { ...payload, client_secret: this.secrets.open(payload.client_secret) } : payload;
  }

  private async commit(changes: readonly Change[]): Promise<void> {
    const outcome = await this.store.commit({ changes });
    if (outcome.status !== 'committed') throw new Error(`the OpenID provider's store refused a write (${outcome.status})`);
  }
}
