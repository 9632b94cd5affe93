import { expect } from 'chai';
import { CORE_SCHEMA, Schema, TABLES, schemaOf } from '../../../src/infrastructure/storage/ownership.js';
import { CAPABILITIES } from '../../../src/capabilities/index.js';

/** The service's tables: the core's and its capabilities' (social sign-in's identities, flows and codes). */
const SERVICE = schemaOf(CAPABILITIES);
import { SESSIONS } from '../../../src/infrastructure/storage/account-tables.js';
import type { PersonalDataKeys } from '../../../src/infrastructure/security/personal-data-keys.js';
import { EVENTS } from '../../../src/infrastructure/storage/event-tables.js';
import { TEST_PERSONAL_DATA_KEYS } from '../../support/storages.js';
import { type AnyTable, type Stored, sweepExpired } from '../../../src/infrastructure/storage/store.js';
import { aHolderProof, aRequestMetadata, aSignInCommand, completedSignIn } from '../../support/builders.js';
import { inMemoryWorld } from '../../support/in-memory-world.js';
import { holdsInClear } from '../../support/erasure-probe.js';
import { mailedTo } from '../../support/email-change.js';
import { codeOf } from '../../support/totp.js';
import { ClientSecretBox, StoreOidcAdapter } from '../../../src/infrastructure/oidc-provider/store-oidc-adapter.js';
import { verifiedSignUp } from '../../support/verified.js';

const metadata = aRequestMetadata();

/** Ada's account through every kind of state it can gather: sessions, a factor, a challenge, passkeys, ceremonies, mails, failures. */
async function aFullAccount(keys?: PersonalDataKeys) {
  const world = await inMemoryWorld(keys ? { keys } : {});
  const { signedUp, principal } = await verifiedSignUp(world);
  // Changes of address: confirmed away and back (the last revertible by the address it left), then one pending.
  for (const newEmail of ['countess@example.com', 'ada@example.com']) {
    await world.requestEmailChange.execute({ ...aHolderProof(principal), newEmail });
    await world.confirmEmailChange.execute({ token: await mailedTo(world, newEmail, 'Confirm your new e-mail address'), metadata });
  }
  await world.requestEmailChange.execute({ ...aHolderProof(principal), newEmail: 'countess@example.com' });
  await completedSignIn(world.signIn.execute(aSignInCommand()));
  await world.signIn.execute(aSignInCommand({ password: 'not the password at all' })).catch(() => undefined);
  const challenge = async () => String((await world.passkeyRegistrationOptions.execute(aHolderProof(principal)))['challenge']);
  await world.addPasskey.execute({ principal, response: { id: 'credential-1', challenge: await challenge() }, metadata });
  await challenge();
  await world.passkeyAuthenticationOptions.execute({ principal });
  const { secret } = await world.enrolTotp.execute(aHolderProof(principal));
  await world.confirmTotp.execute({ principal, code: codeOf(secret, world.clock.now()), metadata });
  world.clock.advance(30_000);
  await world.signIn.execute(aSignInCommand());
  await world.deliverMail.execute();
  await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
  // The operator role (issue 65): the account's, granted by the command line.
  await world.setOperatorRole.execute({ email: 'ada@example.com', operator: true, metadata });
  // A provider identity (social sign-in, issue 52), through its repository until a use case links one.
  const identity = { id: 'identity-1', userId: signedUp.user.id, provider: 'corp', issuer: 'https://id.example.com', subject: 'ada-at-corp', email: 'ada@example.com', createdAt: world.clock.now() };
  expect(await world.identities.add(identity, [])).to.equal('linked');
  const flows = world.oauthFlows;
  const at = world.clock.now();
  await flows.open({ id: 'flow-1', provider: 'corp', redirectTo: 'https://app.example/cb', codeChallenge: 'c', linkTo: { userId: signedUp.user.id, sessionId: principal.sessionId }, createdAt: at, expiresAt: new Date(at.getTime() + 600_000) });
  await flows.issue({ id: 'code-1', userId: signedUp.user.id, identityId: 'identity-1', provider: 'corp', codeChallenge: 'c', epoch: 0, createdAt: at, expiresAt: new Date(at.getTime() + 60_000) }, []);
  // A grant of the OpenID provider to an app (issue 64), written through its storage as the engine writes it.
  // Its session at the pages, a grant to an app, a token, and an interaction that names it (before it is the account's).
  const oidc = (model: string) => new StoreOidcAdapter(world.tables, model, new ClientSecretBox(Buffer.alloc(32, 1)), Error, async () => 0, () => world.clock.now().getTime());
  await oidc('Grant').upsert('grant-1', { accountId: signedUp.user.id, clientId: 'app' }, 600);
  await oidc('Session').upsert('session-1', { uid: 'su-1', accountId: signedUp.user.id }, 600);
  await oidc('AccessToken').upsert('token-1', { accountId: signedUp.user.id, grantId: 'grant-1', clientId: 'app' }, 600);
  await oidc('Interaction').upsert('interaction-1', { uid: 'iu-1', session: { accountId: signedUp.user.id }, result: { login: { accountId: signedUp.user.id } } }, 600);
  return { world, userId: signedUp.user.id };
}

/** The names of the tables the in-memory store holds records of (its private map, read here only: no store lists its tables). */
const tableNames = (world: Awaited<ReturnType<typeof inMemoryWorld>>): string[] => [...(world.tables as unknown as { tables: Map<string, unknown> }).tables.keys()];

/**
 * The records of every table the store holds that name the account (its id or its address), by table name; an outbox
 * entry, which names only its event, counts when that event is the account's.
 */
const naming = (world: Awaited<ReturnType<typeof inMemoryWorld>>, userId: string): Record<string, number> => {
  const found: Record<string, number> = {};
  const accountEvents = new Set((world.tables.rowsOf(EVENTS) as Stored<{ aggregateId: string | null }>[]).filter((row) => row.value.aggregateId === userId).map((row) => row.key));
  for (const name of tableNames(world)) {
    const rows = world.tables.rowsOf({ name } as AnyTable) as Stored<unknown>[];
    const names = (row: Stored<unknown>) => [row.key, JSON.stringify(row.value)].some((text) => text.includes(userId) || text.includes('ada@example.com'));
    const count = rows.filter((row) => names(row) || (name === 'outbox' && accountEvents.has(row.key))).length;
    if (count > 0) found[name] = count;
  }
  return found;
};

describe('Ownership: every table says whose records it holds (Table.owner), and erase and credentials follow from it', () => {
  it('lists every table a store holds, each owner pointing at an index it has or a table listed', async () => {
    const { world } = await aFullAccount();
    const listed = SERVICE.tables.map((table) => table.name);
    expect(tableNames(world).filter((name) => !listed.includes(name)), 'tables written but declared by no one').to.deep.equal([]);
    for (const { name, owner, indexes } of SERVICE.tables) {
      if (!('account' in owner) || typeof owner.account !== 'object') continue;
      if ('index' in owner.account) expect(indexes, name).to.have.property(owner.account.index);
      else expect(SERVICE.tables, name).to.include(owner.account.beside);
    }
    expect(SERVICE.credentialTables.map((table) => table.name)).to.deep.equal(['identities', 'oauth-codes', 'passkeys', 'totp-factors']);
    expect(SERVICE.expiringTables).to.not.include(SESSIONS);
    const ways = SERVICE.waysInto('u-1');
    expect([ways.records.map((term) => term.table.name), ways.ranges.map((term) => `${term.table.name}.${term.index}`)], 'the first factors: no second factor, no one-time code')
      .to.deep.equal([['users'], ['identities.byUser', 'passkeys.byUser']]);
    expect([{ passwordHash: 'x' }, { passwordHash: '' }, null].map((user) => (ways.records[0]?.weight as (value: unknown) => number)(user)), 'a password is one way in').to.deep.equal([1, 0, 0]);
  });

  it("joins a capability's tables to the core's: its ways in are summed, its expiring records swept; a name taken twice is refused", () => {
    const tokens: AnyTable = { name: 'device-tokens', indexes: { byUser: (token: { userId: string }) => [token.userId] }, owner: { account: { index: 'byUser' }, credential: true, signsIn: 'each', exported: { not: 'a secret' } }, expiresAt: () => 0 } as unknown as AnyTable;
    const schema = schemaOf([{ tables: [tokens] }]);
    expect(schema.tables.map((table) => table.name)).to.deep.equal([...TABLES.map((table) => table.name), 'device-tokens']);
    expect(schema.credentialTables, 'its records go with "remove every credential"').to.include(tokens);
    expect(schema.expiringTables).to.include(tokens);
    expect(schema.waysInto('u-1').ranges.map((term) => term.table.name)).to.include('device-tokens');
    expect(CORE_SCHEMA.waysInto('u-1').ranges.map((term) => term.table.name)).to.not.include('device-tokens');
    expect(() => new Schema([...TABLES, { ...tokens, name: 'sessions' }])).to.throw('Two tables are named sessions');
  });

  for (const [world, keys] of [['personal data in clear (the unit tests\' world)', undefined], ['personal data sealed (as the service keeps it)', TEST_PERSONAL_DATA_KEYS]] as const) {
    it(`fails for a table holding account data with no owner: after the erase and the session sweep, no record names the account (${world})`, async () => {
      const { world, userId } = await aFullAccount(keys);
      const before = naming(world, userId);
      for (const table of SERVICE.tables.filter((table) => 'account' in table.owner && !['ended-epochs', 'unverified-accounts'].includes(table.name))) {
        if (table.name === 'data-keys' && !keys) continue;
        expect(before, `the full account has records in ${table.name}`).to.have.property(table.name);
      }
      const user = await world.users.findById(userId);
      expect(user && (await world.users.erase(user, []))).to.equal(true);
      const left = Object.keys(naming(world, userId));
      const removedByErase = SERVICE.tables.filter(({ owner }) => 'account' in owner && owner.account !== 'epoch' && owner.account !== 'marker' && !(keys && 'shredded' in owner)).map((table) => table.name);
      expect(left.filter((name) => removedByErase.includes(name)), 'what the erase removes').to.deep.equal([]);
      // In clear, counters are keyed by the address; sealed, by its blind index, and the log keeps its events (unreadable).
      // The OpenID provider's interaction that named the account is nobody's: it goes when it expires (minutes).
      const kept = keys ? ['ended-epochs', 'events', 'index-counts', 'oidc-state', 'sessions'] : ['counters', 'ended-epochs', 'index-counts', 'oidc-state', 'sessions'];
      expect(left.sort(), 'until the sweeps: the sessions, their count, the epoch marker, the counters of the address, an interaction').to.deep.equal(kept);
      if (keys) {
        const events = world.tables.rowsOf(EVENTS);
        expect(events.length, 'the log stays whole').to.be.greaterThan(10);
        const stored = JSON.stringify(events);
        expect([holdsInClear(stored, 'ada@example.com'), holdsInClear(stored, 'Ada')], 'no address or name in the log as stored').to.deep.equal([false, false]);
        expect((await world.events.findByAggregate(userId, { limit: 100, cursor: null })).events, 'nothing of the account reads').to.deep.equal([]);
      }
      world.clock.advance(86_400_000);
      while ((await world.ports.sessions.removeExpired(world.clock.now(), 100)) > 0);
      for (const table of SERVICE.expiringTables) while ((await sweepExpired(world.tables, table, world.clock.now().getTime(), 100)) > 0);
      expect(Object.keys(naming(world, userId)), 'the tables owned by nobody go by themselves').to.deep.equal(keys ? ['events'] : []);
    });
  }
});
