import { expect } from 'chai';
import { InMemoryTables } from '../../../src/infrastructure/memory/in-memory-tables.js';
import { PersonalDataKeys } from '../../../src/infrastructure/security/personal-data-keys.js';
import { EMAIL_CLAIM, SESSIONS, USERS } from '../../../src/infrastructure/storage/account-tables.js';
import { CLAIMS, claimKey, ownerOf } from '../../../src/infrastructure/storage/commit-plan.js';
import { EVENTS } from '../../../src/infrastructure/storage/event-tables.js';
import { DIRECTORY } from '../../../src/infrastructure/storage/directory-tables.js';
import { DATA_KEYS, KEY_CHECK, KEY_CHECK_ID, PersonalDataKeyMismatch } from '../../../src/infrastructure/storage/sealing-store.js';
import { type AnyTable, type Stored, put, remove } from '../../../src/infrastructure/storage/store.js';
import { aRequestMetadata, aSignUpCommand } from '../../support/builders.js';
import { holdsInClear } from '../../support/erasure-probe.js';
import { inMemoryWorld } from '../../support/in-memory-world.js';
import { TEST_PERSONAL_DATA_KEYS } from '../../support/storages.js';
import { sealingStoreOver } from '../../../src/infrastructure/storage/storage.js';

const PERSONAL = ['ada@example.com', 'Ada', 'Lovelace', '203.0.113.7', 'test-agent/1.0'];

/** Every record and key the in-memory store holds, as text (what a copy of the store would show). */
const everything = (tables: InMemoryTables): string =>
  [...(tables as unknown as { tables: Map<string, unknown> }).tables.keys()]
    .flatMap((name) => (tables.rowsOf({ name } as AnyTable) as Stored<unknown>[]).map((row) => `${row.key} ${JSON.stringify(row.value)}`))
    .join('\n');

const aSession = (userId: string, id: string) => ({
  id, userId, email: 'ada@example.com', createdAt: new Date(0), lastUsedAt: new Date(0), absoluteExpiresAt: new Date(1e13), expiresAt: new Date(1e13),
  generation: 0, rotatedAt: null, revokedAt: null, revokedReason: null, clientIp: '203.0.113.7', userAgent: 'test-agent/1.0', epoch: 0,
});

/** The personal-data keys, counting what they open (decryptions), so a test can say what a read opened. */
class CountingKeys extends PersonalDataKeys {
  opened = 0;

  override open(key: Buffer, associated: string, sealed: string) {
    this.opened += 1;
    return super.open(key, associated, sealed);
  }
}

describe('SealingStore: personal data sealed at rest under each account\'s data key', () => {
  it('stores no address, name, client IP or user agent of an account anywhere, and reads each back as written', async () => {
    const world = await inMemoryWorld({ keys: TEST_PERSONAL_DATA_KEYS });
    const { user } = await world.signUp.execute({ ...aSignUpCommand(), metadata: aRequestMetadata() });
    await world.signIn.execute({ email: 'ada@example.com', password: 'wrong password entirely', metadata: aRequestMetadata() }).catch(() => undefined);

    const stored = everything(world.tables);
    for (const value of PERSONAL) expect(holdsInClear(stored, value), value).to.equal(false);
    expect(holdsInClear(`x ${JSON.stringify({ name: 'Ada' })}`, 'Ada'), 'the probe finds a value in clear').to.equal(true);
    expect((await world.users.findByEmail('ada@example.com'))?.name.value, 'found by its address (a blind index)').to.equal('Ada');
    const { events } = await world.events.findByAggregate(user.id, { limit: 10, cursor: null });
    expect(events.map((event) => event.type)).to.include('UserRegistered');
    expect(events[0]?.metadata).to.deep.equal(aRequestMetadata());
  });

  it('destroys the account\'s data key with its erase: the log keeps its events, none of them readable', async () => {
    const world = await inMemoryWorld({ keys: TEST_PERSONAL_DATA_KEYS });
    const { user } = await world.signUp.execute(aSignUpCommand());
    expect(world.tables.rowsOf(DATA_KEYS).map((row) => row.key)).to.deep.equal([user.id]);
    const loaded = await world.users.findById(user.id);
    expect(loaded && (await world.users.erase(loaded, []))).to.equal(true);

    expect(world.tables.rowsOf(DATA_KEYS)).to.deep.equal([]);
    const kept = world.tables.rowsOf(EVENTS).filter((row) => row.value.aggregateId === user.id);
    expect(kept.length, 'the log stays append-only').to.be.greaterThan(0);
    const store = sealingStoreOver(world.tables, TEST_PERSONAL_DATA_KEYS);
    for (const row of kept) expect((await store.get(EVENTS, row.key))?.value).to.include({ payload: null, metadata: null });
    expect(await world.users.findByEmail('ada@example.com'), 'the address is free').to.equal(null);
  });

  it('refuses a process whose key is not the one the store is sealed under; the same key starts, from any number of processes at once', async () => {
    const tables = new InMemoryTables();
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => sealingStoreOver(tables, TEST_PERSONAL_DATA_KEYS).verifyKey()));
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(Array(5).fill('fulfilled'));
    const check = await tables.get(KEY_CHECK, KEY_CHECK_ID);
    expect(check?.value.fingerprint).to.equal(TEST_PERSONAL_DATA_KEYS.fingerprint);
    expect(JSON.stringify(check?.value)).not.to.include(Buffer.alloc(32, 5).toString('base64'));
    const other = sealingStoreOver(tables, new PersonalDataKeys(Buffer.alloc(32, 6)));
    const refused = await other.verifyKey().then(() => null, (error: unknown) => error);
    expect(refused).to.be.instanceOf(PersonalDataKeyMismatch);
    expect((refused as Error).message).to.include('PERSONAL_DATA_KEY').and.include('the same key');
    await sealingStoreOver(tables, TEST_PERSONAL_DATA_KEYS).verifyKey();
  });

  it('checks a store sealed before the fingerprint (its record removed) against an account\'s data key, then keeps the fingerprint', async () => {
    const world = await inMemoryWorld({ keys: TEST_PERSONAL_DATA_KEYS });
    await world.signUp.execute(aSignUpCommand());
    expect(world.tables.rowsOf(DIRECTORY)).to.have.length(1);
    await world.tables.commit({ changes: [remove(KEY_CHECK, KEY_CHECK_ID, 'any')] });
    const refused = await sealingStoreOver(world.tables, new PersonalDataKeys(Buffer.alloc(32, 6))).verifyKey().then(() => null, (error: unknown) => error);
    expect(refused, 'another key does not open the account\'s data key').to.be.instanceOf(PersonalDataKeyMismatch);
    expect(world.tables.rowsOf(KEY_CHECK), 'and writes nothing').to.deep.equal([]);
    await sealingStoreOver(world.tables, TEST_PERSONAL_DATA_KEYS).verifyKey();
    expect(world.tables.rowsOf(KEY_CHECK).map((row) => row.value.fingerprint)).to.deep.equal([TEST_PERSONAL_DATA_KEYS.fingerprint]);
  });

  it('makes one data key for simultaneous first writes of an account that had none, refusing none of them', async () => {
    const tables = new InMemoryTables();
    await tables.commit({ changes: [put(USERS, 'u1', { id: 'u1', email: 'ada@example.com' } as never, null)] });
    const store = sealingStoreOver(tables, TEST_PERSONAL_DATA_KEYS);
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => store.commit({ changes: [put(SESSIONS, `s${i}`, aSession('u1', `s${i}`), null)] })));
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(Array(10).fill('committed'));
    expect(tables.rowsOf(DATA_KEYS)).to.have.length(1);
    for (let i = 0; i < 10; i++) expect((await store.get(SESSIONS, `s${i}`))?.value.userAgent).to.equal('test-agent/1.0');
  });

  it('makes no key for an account that is gone: a late write is sealed under the service\'s key', async () => {
    const tables = new InMemoryTables();
    const store = sealingStoreOver(tables, TEST_PERSONAL_DATA_KEYS);
    expect(await store.commit({ changes: [put(SESSIONS, 's1', aSession('erased', 's1'), null)] })).to.deep.equal({ status: 'committed' });
    expect(tables.rowsOf(DATA_KEYS)).to.deep.equal([]);
    expect(JSON.stringify(tables.rowsOf(SESSIONS))).not.to.include('test-agent');
    expect((await store.get(SESSIONS, 's1'))?.value.clientIp).to.equal('203.0.113.7');
  });

  it('refuses a write racing the erase: a commit sealed under a data key another process destroyed meanwhile is a conflict', async () => {
    const tables = new InMemoryTables();
    const writer = sealingStoreOver(tables, TEST_PERSONAL_DATA_KEYS);
    await writer.commit({ changes: [put(USERS, 'u1', { id: 'u1', email: 'ada@example.com' } as never, null)] });
    expect((await writer.get(USERS, 'u1'))?.value.email, 'the writer knows the key').to.equal('ada@example.com');
    const eraser = sealingStoreOver(tables, TEST_PERSONAL_DATA_KEYS);
    await eraser.commit({ changes: [remove(USERS, 'u1', 'any'), remove(DATA_KEYS, 'u1', 'any')] });
    expect(await writer.commit({ changes: [put(SESSIONS, 's1', aSession('u1', 's1'), null)] })).to.deep.equal({ status: 'conflict' });
    expect(tables.rowsOf(SESSIONS)).to.deep.equal([]);
    expect(await writer.commit({ changes: [put(SESSIONS, 's1', aSession('u1', 's1'), null)] }), 'decided again: no key, sealed under the service\'s').to.deep.equal({ status: 'committed' });
    expect(String((tables.rowsOf(SESSIONS)[0]!.value as Record<string, unknown>)['_sealed'])).to.match(/^s\./);
    expect(tables.rowsOf(DATA_KEYS)).to.deep.equal([]);
  });

  it('opens nothing under another key-encryption key, and nothing moved to another account', async () => {
    const tables = new InMemoryTables();
    await sealingStoreOver(tables, TEST_PERSONAL_DATA_KEYS).commit({ changes: [put(USERS, 'u1', { id: 'u1', email: 'ada@example.com' } as never, null)] });
    expect((await sealingStoreOver(tables, new PersonalDataKeys(Buffer.alloc(32, 6))).get(USERS, 'u1'))?.value.email).to.equal(null);
    const sealed = tables.rowsOf(USERS)[0]!.value;
    await tables.commit({ changes: [put(USERS, 'u2', { ...sealed, id: 'u2' }, null)] });
    expect((await sealingStoreOver(tables, TEST_PERSONAL_DATA_KEYS).get(USERS, 'u2'))?.value.email).to.equal(null);
  });

  it('opens a record read again at the same version once; an event of the log (which outlives its key) every time', async () => {
    const counting = new CountingKeys(Buffer.alloc(32, 5));
    const world = await inMemoryWorld({ keys: counting });
    const { user } = await world.signUp.execute(aSignUpCommand());
    const store = sealingStoreOver(world.tables, counting);
    const session = world.tables.rowsOf(SESSIONS)[0]!.key;
    counting.opened = 0;
    for (let i = 0; i < 3; i++) expect((await store.get(SESSIONS, session))?.value.email).to.equal('ada@example.com');
    expect(counting.opened, 'a session read three times').to.equal(1);
    const event = world.tables.rowsOf(EVENTS).find((row) => row.value.aggregateId === user.id)!.key;
    counting.opened = 0;
    for (let i = 0; i < 3; i++) await store.get(EVENTS, event);
    expect(counting.opened, 'an event read three times').to.equal(3);
    const loaded = await world.users.findById(user.id);
    await world.users.erase(loaded!, []);
    expect((await store.get(EVENTS, event))?.value.payload, 'once the key is gone, even here').to.equal(null);
  });

  it('leaves a record unopened for a read that shows none of its personal fields (a bearer request\'s session)', async () => {
    const counting = new CountingKeys(Buffer.alloc(32, 6));
    const world = await inMemoryWorld({ keys: counting });
    const { user } = await world.signUp.execute(aSignUpCommand());
    const store = sealingStoreOver(world.tables, counting);
    const session = world.tables.rowsOf(SESSIONS)[0]!.key;
    counting.opened = 0;
    const unopened = await store.get(SESSIONS, session, { personal: false });
    expect([unopened?.value.userId, unopened?.value.clientIp, unopened?.value.userAgent, counting.opened]).to.deep.equal([user.id, undefined, undefined, 0]);
    const [first, again] = [await store.get(SESSIONS, session), await store.get(SESSIONS, session)];
    expect([first?.value.clientIp, again?.value.userAgent, counting.opened]).to.deep.equal(['203.0.113.7', 'test-agent/1.0', 1]);
    expect(Object.isFrozen(again?.value), 'a kept opening is shared, so it cannot be changed by one reader').to.equal(true);
  });

  it('still honours a claim stored in clear before sealing: another owner\'s claim of that value is refused', async () => {
    const tables = new InMemoryTables();
    await tables.commit({ claims: [{ name: EMAIL_CLAIM, value: 'ada@example.com', owner: 'old' }] });
    const store = sealingStoreOver(tables, TEST_PERSONAL_DATA_KEYS);
    expect(await ownerOf(store, EMAIL_CLAIM, 'ada@example.com')).to.equal('old');
    expect(await store.commit({ claims: [{ name: EMAIL_CLAIM, value: 'ada@example.com', owner: 'new' }] })).to.deep.equal({ status: 'taken', claim: EMAIL_CLAIM });
    expect(await store.commit({ releases: [{ name: EMAIL_CLAIM, value: 'ada@example.com' }] })).to.deep.equal({ status: 'committed' });
    expect(await tables.get(CLAIMS, claimKey(EMAIL_CLAIM, 'ada@example.com'))).to.equal(null);
    expect(await store.commit({ claims: [{ name: EMAIL_CLAIM, value: 'ada@example.com', owner: 'new' }] })).to.deep.equal({ status: 'committed' });
    expect(await ownerOf(store, EMAIL_CLAIM, 'ada@example.com')).to.equal('new');
  });
});

describe("The erase's view of a sealed log (no state of the process decides it: the record as stored does)", () => {
  const event = (eventId: string, userId: string) =>
    ({ eventId, type: 'ProfileChanged', aggregateId: userId, occurredAt: new Date(0), payload: { email: 'ada@example.com' }, metadata: aRequestMetadata() }) as const;

  it('removes the events stored in clear (written before sealing) and keeps the sealed ones, even from a process that never read them', async () => {
    const tables = new InMemoryTables();
    const { removalsOf } = await import('../../../src/infrastructure/storage/ownership.js');
    // One event written before sealing existed (straight to the technology, in clear), one sealed by a first process.
    expect((await tables.commit({ events: [event('clear-1', 'u1')] })).status).to.equal('committed');
    expect((await sealingStoreOver(tables, TEST_PERSONAL_DATA_KEYS).commit({ events: [event('sealed-1', 'u1')] })).status).to.equal('committed');
    // A second process (a fresh sealing store, nothing read yet) decides what the erase removes.
    const removals = await removalsOf(sealingStoreOver(tables, TEST_PERSONAL_DATA_KEYS), 'u1', [EVENTS]);
    expect(removals.map((change) => change.key)).to.deep.equal(['clear-1']);
  });
});
