import { expect } from 'chai';
import type { Document } from 'mongodb';
import { MongoNotWritablePrimary, StandaloneMongoServer, readHello, waitForWritablePrimary } from '../../../src/infrastructure/mongo/mongo-startup-check.js';

/**
 * `hello` replies from MongoDB's Server Discovery and Monitoring spec tests
 * (github.com/mongodb/specifications, source/server-discovery-and-monitoring/tests/):
 */
const HELLO = {
  /** rs/discover_arbiters.yml: an RSPrimary of set "rs". */
  primary: { ok: 1, helloOk: true, isWritablePrimary: true, hosts: ['a:27017'], arbiters: ['b:27017'], setName: 'rs', minWireVersion: 0, maxWireVersion: 21 },
  /** rs/discover_secondary.yml: an RSSecondary. */
  secondary: { ok: 1, helloOk: true, isWritablePrimary: false, secondary: true, setName: 'rs', hosts: ['a:27017', 'b:27017'], minWireVersion: 0, maxWireVersion: 21 },
  /** rs/discover_rsother.yml: RSOther, a member neither primary nor secondary (starting, recovering, being elected). */
  rsOther: { ok: 1, helloOk: true, isWritablePrimary: false, secondary: false, hosts: ['c:27017', 'd:27017'], setName: 'rs', minWireVersion: 0, maxWireVersion: 21 },
  /** rs/discover_ghost.yml: RSGhost, a `--replSet` member whose set was never initiated. */
  ghost: { ok: 1, helloOk: true, isWritablePrimary: false, isreplicaset: true, minWireVersion: 0, maxWireVersion: 21 },
  /** single/direct_connection_rsarbiter.yml: an RSArbiter. */
  arbiter: { ok: 1, ismaster: false, arbiterOnly: true, hosts: ['a:27017', 'b:27017'], setName: 'rs' },
  /** single/direct_connection_standalone.yml: a Standalone. */
  standalone: { ok: 1, helloOk: true, isWritablePrimary: true, minWireVersion: 0, maxWireVersion: 21 },
  /** single/direct_connection_mongos.yml: a Mongos. */
  mongos: { ok: 1, ismaster: true, msg: 'isdbgrid' },
} satisfies Record<string, Document>;

/** A clock that moves only when the wait sleeps, so the bounded retry is checked without waiting. */
const virtualTime = () => {
  let now = 0;
  return { now: () => now, sleep: (ms: number) => Promise.resolve(void (now += ms)) };
};

const replies = (...sequence: Document[]) => {
  let asked = 0;
  const hello = () => Promise.resolve(sequence[Math.min(asked++, sequence.length - 1)] ?? {});
  return { hello, asked: () => asked };
};

const failure = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
};

describe('MongoDB start-up: a writable primary or nothing (hello replies from the SDAM spec tests, no server)', () => {
  it('accepts a primary and a mongos router', () => {
    expect(readHello(HELLO.primary)).to.deep.equal({ writable: true });
    expect(readHello(HELLO.mongos)).to.deep.equal({ writable: true });
  });

  const states: Array<[keyof typeof HELLO, RegExp]> = [
    ['secondary', /a secondary of replica set "rs"/],
    ['rsOther', /neither primary nor secondary \(starting up, recovering or still being elected\)/],
    ['ghost', /never initiated \(run `rs.initiate\(\)` once\)/],
    ['arbiter', /an arbiter of replica set "rs"/],
  ];
  for (const [name, state] of states) {
    it(`refuses ${name} after the bounded wait, with a message naming the state`, async () => {
      const clock = virtualTime();
      const server = replies(HELLO[name]);
      const error = await failure(waitForWritablePrimary(server.hello, { waitMs: 2_000, intervalMs: 500, ...clock }));
      expect(error).to.be.instanceOf(MongoNotWritablePrimary);
      expect(error.message).to.match(state).and.match(/not a writable primary/).and.include('MONGODB_URI');
      expect(server.asked()).to.equal(5);
      expect(clock.now()).to.equal(2_000);
    });
  }

  it('waits through an election: RSOther, then secondary, then primary starts', async () => {
    const clock = virtualTime();
    const server = replies(HELLO.rsOther, HELLO.secondary, HELLO.primary);
    await waitForWritablePrimary(server.hello, { waitMs: 10_000, intervalMs: 500, ...clock });
    expect(server.asked()).to.equal(3);
    expect(clock.now()).to.equal(1_000);
  });

  it('refuses a standalone at once (waiting cannot help), saying how to make it a replica set', async () => {
    const clock = virtualTime();
    const server = replies(HELLO.standalone);
    const error = await failure(waitForWritablePrimary(server.hello, { waitMs: 10_000, intervalMs: 500, ...clock }));
    expect(error).to.be.instanceOf(StandaloneMongoServer);
    expect(error.message).to.include('--replSet rs0').and.include('rs.initiate()');
    expect(server.asked()).to.equal(1);
  });

  it('lets an error of hello itself (unreachable server) through unchanged, for open() to report', async () => {
    const unreachable = new Error('connect ECONNREFUSED');
    const error = await failure(waitForWritablePrimary(() => Promise.reject(unreachable), { waitMs: 1_000, intervalMs: 500, ...virtualTime() }));
    expect(error).to.equal(unreachable);
  });
});
