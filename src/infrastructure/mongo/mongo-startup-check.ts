import type { Document } from 'mongodb';

/** Thrown at start-up when the server cannot run transactions because it is not a replica set member. */
export class StandaloneMongoServer extends Error {
  constructor() {
    super(
      'MongoDB is a standalone server, but this service writes a user and its events in one transaction, which needs a replica set. ' +
        'Start mongod with `--replSet rs0`, run `rs.initiate()` once (e.g. `mongosh --eval "rs.initiate()"`), ' +
        'and point MONGODB_URI at it (e.g. mongodb://host:27017/?replicaSet=rs0). A single-node replica set is enough.',
    );
    this.name = 'StandaloneMongoServer';
  }
}

/** Thrown at start-up when the server answered but stayed unable to take writes for the whole wait. Names its state. */
export class MongoNotWritablePrimary extends Error {
  constructor(
    readonly state: string,
    waitedMs: number,
  ) {
    super(
      `MongoDB answered, but it is ${state}, not a writable primary (waited ${waitedMs} ms). ` +
        'Point MONGODB_URI at the replica set (e.g. mongodb://db1,db2,db3/?replicaSet=rs0) rather than at one member with directConnection=true, ' +
        'or wait for the election to finish; a member started with `--replSet` needs `rs.initiate()` once.',
    );
    this.name = 'MongoNotWritablePrimary';
  }
}

/** What a `hello` reply says about the server, in the words of the SDAM server types. */
export type HelloVerdict = { readonly writable: true } | { readonly writable: false; readonly state: string; readonly standalone: boolean };

/**
 * Reads a `hello` reply the way the driver's SDAM does (`parseServerType`): a writable primary or a mongos router
 * can take this service's transactions; a secondary, an arbiter, a member still starting, recovering or being
 * elected (RSOther), and a `--replSet` member never initiated (RSGhost, `isreplicaset: true`) cannot yet.
 */
export function readHello(hello: Document): HelloVerdict {
  const not = (state: string, standalone = false): HelloVerdict => ({ writable: false, state, standalone });
  if (!hello['ok']) return not('not answering `hello` with ok: 1');
  if (hello['isreplicaset'] === true) return not('a member started with `--replSet` whose replica set was never initiated (run `rs.initiate()` once)');
  if (hello['msg'] === 'isdbgrid') return { writable: true };
  const setName: unknown = hello['setName'];
  if (typeof setName !== 'string' || setName === '') return not('a standalone server', true);
  if (hello['isWritablePrimary'] === true && hello['hidden'] !== true) return { writable: true };
  if (hello['secondary'] === true) return not(`a secondary of replica set "${setName}"`);
  if (hello['arbiterOnly'] === true) return not(`an arbiter of replica set "${setName}"`);
  if (hello['hidden'] === true) return not(`a hidden member of replica set "${setName}"`);
  return not(`a member of replica set "${setName}" that is neither primary nor secondary (starting up, recovering or still being elected)`);
}

export interface PrimaryWait {
  /** How long to keep asking before giving up. */
  readonly waitMs: number;
  /** Pause between two `hello`s. */
  readonly intervalMs: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Asks `hello` until the server is a writable primary or a mongos, for at most `waitMs`. Throws StandaloneMongoServer
 * at once for a standalone (waiting cannot help), MongoNotWritablePrimary naming the last state when the wait ends;
 * errors of `hello` itself (unreachable server) propagate unchanged.
 */
export async function waitForWritablePrimary(hello: () => Promise<Document>, wait: PrimaryWait): Promise<void> {
  const now = wait.now ?? Date.now;
  const sleep = wait.sleep ?? pause;
  const started = now();
  for (;;) {
    const verdict = readHello(await hello());
    if (verdict.writable) return;
    if (verdict.standalone) throw new StandaloneMongoServer();
    const waited = now() - started;
    if (waited + wait.intervalMs > wait.waitMs) throw new MongoNotWritablePrimary(verdict.state, waited);
    await sleep(wait.intervalMs);
  }
}
