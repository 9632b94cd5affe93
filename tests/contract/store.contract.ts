import { expect } from 'chai';
import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import { COUNTERS, INDEX_COUNTS, countOf, indexCountKey, ownerOf } from '../../src/infrastructure/storage/commit-plan.js';
import { type Store, type Table, check, entryOf, expectThat, put, remove, sweepExpired } from '../../src/infrastructure/storage/store.js';
import { aRequestMetadata } from '../support/builders.js';
import { rejection } from '../support/rejection.js';
import { eventsAbout } from '../support/events-about.js';
import type { StorageFactory, StorageUnderTest } from './storage.contract.js';

interface Note {
  readonly owner: string;
  readonly at: number;
  readonly text: string;
  readonly until: number | null;
}

/** A table of the contract's own: notes by owner and time, expiring at `until`. */
const NOTES: Table<Note> = {
  name: 'contract-notes',
  indexes: { byOwner: (note) => [note.owner, note.at], open: (note) => (note.text === 'closed' ? null : [note.owner]) },
  expiresAt: (note) => note.until,
  owner: { none: 'a contract test table' },
};

/** The same notes as one declaration written before its `open` index was counted (UNCOUNTED), and one after (COUNTED). */
const UNCOUNTED: Table<Note> = {
  name: 'contract-counted-notes',
  indexes: { open: (note) => (note.text === 'closed' ? null : [note.owner, note.at]) },
  owner: { none: 'a contract test table' },
};
const COUNTED: Table<Note> = { ...UNCOUNTED, counted: { open: 1 } };

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;
const aNote = (owner: string, at: number, text = 'hello', until: number | null = null): Note => ({ owner, at, text, until });

const anEvent = (email: string): RecordedEvent => ({
  eventId: unique('ev'),
  type: 'SignInFailed',
  aggregateId: null,
  occurredAt: new Date(),
  payload: { email, reason: 'unknown_email' },
  metadata: aRequestMetadata(),
});

/** Every Store: conditional writes, unique claims and conditional counters, with the events, in one commit. */
export function storeContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`Store contract: ${adapter}`, () => {
    let storage: StorageUnderTest;
    let store: Store;
    beforeEach(async () => {
      storage = await makeStorage();
      store = storage.store;
    });
    afterEach(async () => storage.dispose());

    it('writes a new record at version 0 and each conditional put moves it on by one', async () => {
      const key = unique('note');
      expect(await store.get(NOTES, key)).to.equal(null);
      expect(await store.commit({ changes: [put(NOTES, key, aNote('ada', 1), null)] })).to.deep.equal({ status: 'committed' });
      expect(await store.get(NOTES, key)).to.deep.equal({ key, value: aNote('ada', 1), version: 0 });
      expect(await store.commit({ changes: [put(NOTES, key, aNote('ada', 2), 0)] })).to.deep.equal({ status: 'committed' });
      expect((await store.get(NOTES, key))?.version).to.equal(1);
    });

    it('refuses a whole commit when one record moved on, writing none of it and no event', async () => {
      const [a, b] = [unique('note'), unique('note')];
      const email = `${unique('refused')}@example.com`;
      await store.commit({ changes: [put(NOTES, a, aNote('ada', 1), null), put(NOTES, b, aNote('ada', 2), null)] });
      await store.commit({ changes: [put(NOTES, b, aNote('ada', 3), 0)] });
      const outcome = await store.commit({ changes: [put(NOTES, a, aNote('ada', 9), 0), put(NOTES, b, aNote('ada', 9), 0)], events: [anEvent(email)] });
      expect(outcome).to.deep.equal({ status: 'conflict' });
      expect((await store.get(NOTES, a))?.value.at).to.equal(1);
      expect(await eventsAbout(storage.store, { email, types: ['SignInFailed'], since: new Date(0), limit: 10 })).to.deep.equal([]);
    });

    it('refuses a new record whose key exists, and a check of a record that changed', async () => {
      const key = unique('note');
      await store.commit({ changes: [put(NOTES, key, aNote('ada', 1), null)] });
      expect(await store.commit({ changes: [put(NOTES, key, aNote('bob', 1), null)] })).to.deep.equal({ status: 'conflict' });
      expect(await store.commit({ changes: [check(NOTES, key, 0), put(NOTES, unique('n'), aNote('c', 1), null)] })).to.deep.equal({ status: 'committed' });
      await store.commit({ changes: [put(NOTES, key, aNote('ada', 2), 0)] });
      expect(await store.commit({ changes: [check(NOTES, key, 0)] })).to.deep.equal({ status: 'conflict' });
    });

    it('holds a commit to a condition on a record it does not write, and writes unconditionally where asked', async () => {
      const key = unique('note');
      const other = unique('note');
      await store.commit({ changes: [put(NOTES, key, aNote('ada', 1), null)] });
      const isAda = (note: Note | null) => note?.owner === 'ada';
      expect(await store.commit({ changes: [expectThat(NOTES, key, isAda), put(NOTES, other, aNote('x', 1), 'any')] })).to.deep.equal({ status: 'committed' });
      expect(await store.commit({ changes: [expectThat(NOTES, unique('missing'), isAda)] })).to.deep.equal({ status: 'conflict' });
      await store.commit({ changes: [put(NOTES, key, aNote('bob', 1), 0)] });
      expect(await store.commit({ changes: [expectThat(NOTES, key, isAda), put(NOTES, other, aNote('y', 1), 'any')] })).to.deep.equal({ status: 'conflict' });
      expect((await store.get(NOTES, other))?.value.owner).to.equal('x');
      await store.commit({ changes: [put(NOTES, other, aNote('z', 1), 'any')] });
      expect(await store.get(NOTES, other)).to.deep.include({ version: 1, value: aNote('z', 1) });
    });

    it('counts the records of an index under a prefix', async () => {
      const owner = unique('owner');
      await store.commit({ changes: [1, 2, 3].map((n) => put(NOTES, unique('note'), aNote(owner, n, n === 2 ? 'closed' : 'open'), null)) });
      await store.commit({ changes: [put(NOTES, unique('note'), aNote(`${owner}x`, 1), null)] });
      expect(await store.count(NOTES, 'byOwner', [owner])).to.equal(3);
      expect(await store.count(NOTES, 'open', [owner])).to.equal(2);
      expect(await store.count(NOTES, 'byOwner', [unique('nobody')])).to.equal(0);
    });

    describe('a counted index', () => {
      /** The count's own record (null: none written), and the range walked, which it must equal. */
      const countsOf = async (owner: string) => ({
        record: (await store.get(INDEX_COUNTS, indexCountKey(COUNTED, 'open', [owner])))?.value.count ?? null,
        walked: await store.count(COUNTED, 'open', [owner]),
        read: await countOf(store, COUNTED, 'open', [owner]),
      });

      it('is counted in each commit that adds to it or takes from it, exactly under simultaneous commits', async () => {
        const owner = unique('owner');
        const keys = Array.from({ length: 12 }, () => unique('note'));
        await Promise.all(keys.map((key, i) => store.commit({ changes: [put(COUNTED, key, aNote(owner, i), null)] })));
        expect(await countsOf(owner)).to.deep.equal({ record: 12, walked: 12, read: 12 });
        // Four closed (out of the index), three removed, and four of each pair racing for one version: half of those lose.
        const closing = keys.slice(0, 4).map((key, i) => store.commit({ changes: [put(COUNTED, key, aNote(owner, i, 'closed'), 0)] }));
        const removing = keys.slice(4, 7).map((key) => store.commit({ changes: [remove(COUNTED, key, 0)] }));
        const racing = keys.slice(7, 11).flatMap((key, i) => [
          store.commit({ changes: [put(COUNTED, key, aNote(owner, 7 + i, 'closed'), 0)] }),
          store.commit({ changes: [put(COUNTED, key, aNote(owner, 7 + i, 'moved'), 0)] }),
        ]);
        const outcomes = await Promise.all([...closing, ...removing, ...racing]);
        expect(outcomes.filter((outcome) => outcome.status === 'committed')).to.have.length(4 + 3 + 4);
        const counts = await countsOf(owner);
        expect(counts.record).to.equal(counts.walked);
        expect(counts.read).to.equal(counts.walked);
        expect(counts.walked).to.be.within(1, 5);
        expect(await countsOf(unique('nobody'))).to.deep.equal({ record: null, walked: 0, read: 0 });
      });

      it('bounds a range in the commit: of simultaneous adds over a cap of K exactly K commit; a removal below a floor is refused', async () => {
        const owner = unique('owner');
        const range = (bounds: { min?: number; max?: number }) => ({ table: COUNTED, index: 'open', prefix: [owner], ...bounds });
        const keys = Array.from({ length: 10 }, () => unique('note'));
        const outcomes = await Promise.all(keys.map((key, i) => store.commit({ changes: [put(COUNTED, key, aNote(owner, i), null)], ranges: [range({ max: 4 })], events: [anEvent(`${owner}@example.com`)] })));
        expect(outcomes.filter((outcome) => outcome.status === 'committed')).to.have.length(4);
        expect(outcomes.filter((outcome) => outcome.status !== 'committed')).to.deep.equal(Array.from({ length: 6 }, () => ({ status: 'out_of_range', count: 5 })));
        expect(await countsOf(owner)).to.deep.equal({ record: 4, walked: 4, read: 4 });
        const held = keys.filter((_, i) => outcomes[i]?.status === 'committed');
        const removals = await Promise.all(held.map((key) => store.commit({ changes: [remove(COUNTED, key, 0)], ranges: [range({ min: 2 })] })));
        expect(removals.filter((outcome) => outcome.status === 'committed'), 'down to the floor').to.have.length(2);
        expect(await countsOf(owner)).to.deep.equal({ record: 2, walked: 2, read: 2 });
        expect(String(await rejection(store.commit({ ranges: [{ table: UNCOUNTED, index: 'open', prefix: [owner], max: 1 }] })))).to.match(/not counted/);
      });

      it('bounds a sum of counted ranges and record weights in the commit: of simultaneous removals of every term, all but one commit', async () => {
        const owner = unique('owner');
        const keyed = unique('password');
        const OTHERS: Table<Note> = { ...COUNTED, name: 'contract-other-notes' };
        const notes = [[COUNTED, unique('a')], [COUNTED, unique('b')], [OTHERS, unique('c')]] as const;
        await store.commit({ changes: [...notes.map(([table, key], i) => put(table, key, aNote(owner, i), null)), put(NOTES, keyed, aNote(owner, 9, 'password'), null)] });
        const weight = (note: Note | null) => (note?.text === 'password' ? 1 : 0);
        const waysIn = (min: number) => ({ ranges: [COUNTED, OTHERS].map((table) => ({ table, index: 'open', prefix: [owner] })), records: [{ table: NOTES, key: keyed, weight }], min });
        const outcomes = await Promise.all([
          ...notes.map(([table, key]) => store.commit({ changes: [remove(table, key, 0)], atLeast: [waysIn(1)] })),
          store.commit({ changes: [put(NOTES, keyed, aNote(owner, 9, 'none'), 0)], atLeast: [waysIn(1)] }),
        ]);
        expect(outcomes.filter((outcome) => outcome.status === 'committed')).to.have.length(3);
        expect(outcomes.filter((outcome) => outcome.status !== 'committed')).to.deep.equal([{ status: 'out_of_range', count: 0 }]);
        const total = async () => (await countOf(store, COUNTED, 'open', [owner])) + (await countOf(store, OTHERS, 'open', [owner])) + weight((await store.get(NOTES, keyed))?.value ?? null);
        expect(await total(), 'one term left').to.equal(1);
        expect(await store.commit({ atLeast: [waysIn(2)] }), 'a sum checked alone').to.deep.equal({ status: 'out_of_range', count: 1 });
        expect(await store.commit({ changes: [put(OTHERS, unique('d'), aNote(owner, 20), null)], atLeast: [waysIn(2)] }), 'counted once the commit is applied').to.deep.equal({ status: 'committed' });
        expect(await total()).to.equal(2);
        expect(String(await rejection(store.commit({ atLeast: [{ ranges: [{ table: UNCOUNTED, index: 'open', prefix: [owner] }], records: [], min: 1 }] })))).to.match(/not counted/);
      });

      it('is counted from its range by the first commit that changes it when it was written before it was counted, and its count goes at 0', async () => {
        const owner = unique('owner');
        const keys = [unique('a'), unique('b'), unique('c')];
        await store.commit({ changes: keys.map((key, i) => put(UNCOUNTED, key, aNote(owner, i), null)) });
        expect(await countsOf(owner), 'no count yet: read on the range').to.deep.equal({ record: null, walked: 3, read: 3 });
        await store.commit({ changes: [put(COUNTED, keys[0] ?? '', aNote(owner, 0, 'closed'), 0)] });
        expect(await countsOf(owner), 'a change of an existing record').to.deep.equal({ record: 2, walked: 2, read: 2 });
        await store.commit({ changes: [put(COUNTED, keys[0] ?? '', aNote(owner, 0), 1), remove(COUNTED, keys[1] ?? '', 0)] });
        expect(await countsOf(owner), 'one in, one out: nothing moved').to.deep.equal({ record: 2, walked: 2, read: 2 });
        await store.commit({ changes: [remove(COUNTED, keys[0] ?? '', 2), remove(COUNTED, keys[2] ?? '', 0)] });
        expect(await countsOf(owner)).to.deep.equal({ record: null, walked: 0, read: 0 });
      });
    });

    it('commits the events with the changes', async () => {
      const email = `${unique('events')}@example.com`;
      await store.commit({ changes: [put(NOTES, unique('note'), aNote('ada', 1), null)], events: [anEvent(email), anEvent(email)] });
      expect(await eventsAbout(storage.store, { email, types: ['SignInFailed'], since: new Date(0), limit: 10 })).to.have.length(2);
    });

    it('gives exactly one of many simultaneous puts of one version', async () => {
      const key = unique('note');
      await store.commit({ changes: [put(NOTES, key, aNote('ada', 0), null)] });
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => store.commit({ changes: [put(NOTES, key, aNote('ada', i + 1), 0)] })));
      expect(outcomes.filter((outcome) => outcome.status === 'committed')).to.have.length(1);
      expect((await store.get(NOTES, key))?.version).to.equal(1);
    });

    it('removes a record at its version and its index entries with it', async () => {
      const owner = unique('owner');
      const key = unique('note');
      await store.commit({ changes: [put(NOTES, key, aNote(owner, 5), null)] });
      expect(await store.commit({ changes: [remove(NOTES, key, 1)] })).to.deep.equal({ status: 'conflict' });
      expect(await store.commit({ changes: [remove(NOTES, key, 0)] })).to.deep.equal({ status: 'committed' });
      expect(await store.get(NOTES, key)).to.equal(null);
      expect(await store.range(NOTES, 'byOwner', { prefix: [owner], limit: 10 })).to.deep.equal([]);
    });

    it('reads an index range in order, from a prefix, after an entry, reversed, with a limit', async () => {
      const owner = unique('owner');
      const keys = ['k3', 'k1', 'k2', 'k4'].map((k) => `${owner}-${k}`);
      const times = [30, 10, 20, 1_000_000];
      await store.commit({ changes: keys.map((key, i) => put(NOTES, key, aNote(owner, times[i] ?? 0), null)) });
      await store.commit({ changes: [put(NOTES, unique('other'), aNote(`${owner}x`, 15), null)] });
      const at = async (query: Parameters<Store['range']>[2]) => (await store.range(NOTES, 'byOwner', query)).map((stored) => stored.value.at);
      expect(await at({ prefix: [owner], limit: 10 })).to.deep.equal([10, 20, 30, 1_000_000]);
      expect(await at({ prefix: [owner], limit: 2, reverse: true })).to.deep.equal([1_000_000, 30]);
      const after = entryOf([owner, 20], `${owner}-k2`);
      expect(await at({ prefix: [owner], after, limit: 10 })).to.deep.equal([30, 1_000_000]);
      expect(await at({ prefix: [owner], after, limit: 10, reverse: true })).to.deep.equal([10]);
    });

    it('moves a record between index entries when it changes, and leaves it out of an index its key function refuses', async () => {
      const owner = unique('owner');
      const key = unique('note');
      await store.commit({ changes: [put(NOTES, key, aNote(owner, 1), null)] });
      await store.commit({ changes: [put(NOTES, key, aNote(owner, 2, 'closed'), 0)] });
      expect((await store.range(NOTES, 'byOwner', { prefix: [owner], limit: 10 })).map((s) => s.value.at)).to.deep.equal([2]);
      expect(await store.range(NOTES, 'open', { prefix: [owner], limit: 10 })).to.deep.equal([]);
    });

    it('gives a unique value to exactly one of many simultaneous claims, and frees it when released', async () => {
      const value = unique('value');
      const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => store.commit({ claims: [{ name: 'email', value, owner: `owner-${i}` }] })));
      const winners = outcomes.flatMap((outcome, i) => (outcome.status === 'committed' ? [`owner-${i}`] : []));
      expect(winners).to.have.length(1);
      expect(outcomes.filter((outcome) => outcome.status === 'taken')).to.have.length(9);
      expect(await ownerOf(store, 'email', value)).to.equal(winners[0]);
      expect(await store.commit({ claims: [{ name: 'email', value, owner: winners[0] ?? '' }] })).to.deep.equal({ status: 'committed' });
      await store.commit({ releases: [{ name: 'email', value }] });
      expect(await ownerOf(store, 'email', value)).to.equal(null);
      expect(await store.commit({ claims: [{ name: 'email', value, owner: 'late' }] })).to.deep.equal({ status: 'committed' });
    });

    it('counts exactly the cap of many simultaneous attempts, and says when the oldest leaves the window', async () => {
      const key = unique('counter');
      const email = `${unique('counted')}@example.com`;
      const count = (at: number) => ({ key, at, windowMs: 1000, max: 3 });
      const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => store.commit({ counts: [count(10_000 + i)], events: [anEvent(email)] })));
      expect(outcomes.filter((outcome) => outcome.status === 'committed')).to.have.length(3);
      const limited = outcomes.filter((outcome) => outcome.status === 'limited');
      expect(limited).to.have.length(27);
      const committedAt = outcomes.flatMap((outcome, i) => (outcome.status === 'committed' ? [10_000 + i] : []));
      for (const outcome of limited) expect(outcome).to.deep.equal({ status: 'limited', key, retryAt: Math.min(...committedAt) + 1000 });
      expect(await eventsAbout(storage.store, { email, types: ['SignInFailed'], since: new Date(0), limit: 100 })).to.have.length(3);
      expect(await store.commit({ counts: [count(Math.min(...committedAt) + 1000)] })).to.deep.equal({ status: 'committed' });
    });

    it('empties a counter on clear', async () => {
      const key = unique('counter');
      await store.commit({ counts: [{ key, at: 1, windowMs: 1000, max: 1 }] });
      expect((await store.commit({ counts: [{ key, at: 2, windowMs: 1000, max: 1 }] })).status).to.equal('limited');
      await store.commit({ clears: [key] });
      expect((await store.commit({ counts: [{ key, at: 3, windowMs: 1000, max: 1 }] })).status).to.equal('committed');
    });

    it('refuses a commit whose counter has reached its cap (below), writing nothing of it; below the cap commits and clears it', async () => {
      const key = unique('counter');
      const email = `${unique('below')}@example.com`;
      const at = (time: number) => ({ key, at: time, windowMs: 1000, max: 2 });
      await store.commit({ counts: [at(10)] });
      expect(await store.commit({ below: [at(11)], clears: [key], events: [anEvent(email)] }), 'one counted: below the cap').to.deep.equal({ status: 'committed' });
      await store.commit({ counts: [at(20)] });
      await store.commit({ counts: [at(21)] });
      expect(await store.commit({ below: [at(22)], clears: [key], events: [anEvent(email)] })).to.deep.equal({ status: 'limited', key, retryAt: 1020 });
      expect(await eventsAbout(storage.store, { email, types: ['SignInFailed'], since: new Date(0), limit: 100 }), 'only the first commit').to.have.length(1);
      expect((await store.commit({ counts: [at(23)] })).status, 'the count was kept').to.equal('limited');
      expect(await store.commit({ below: [at(1021)], clears: [key] }), 'once the oldest left the window').to.deep.equal({ status: 'committed' });
    });

    it('sweeps the records that expired, oldest first, and keeps the others', async () => {
      const owner = unique('owner');
      const [soon, later, never] = [unique('soon'), unique('later'), unique('never')];
      await store.commit({ changes: [put(NOTES, soon, aNote(owner, 1, 'x', 100), null), put(NOTES, later, aNote(owner, 2, 'x', 200), null), put(NOTES, never, aNote(owner, 3), null)] });
      await store.commit({ counts: [{ key: unique('c'), at: 50, windowMs: 50, max: 1 }] });
      expect(await sweepExpired(store, NOTES, 150, 10)).to.equal(1);
      expect(await store.get(NOTES, soon)).to.equal(null);
      expect(await store.get(NOTES, later)).to.not.equal(null);
      expect(await sweepExpired(store, COUNTERS, 100, 10)).to.be.at.least(1);
      expect(await sweepExpired(store, NOTES, Number.MAX_SAFE_INTEGER, 10)).to.equal(1);
      expect(await store.get(NOTES, never)).to.not.equal(null);
    });
  });
}
