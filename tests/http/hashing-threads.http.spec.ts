import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { threadPoolSizeFor } from '../../src/infrastructure/config/thread-pool.cjs';
import { aSignUpBody } from '../support/builders.js';
import { type ChildService, killHard, spawnService, startEntry } from '../support/child-service.js';
import { postJson } from '../support/http-client.js';
import { busyWorkerThreads, threadCpuTicks, threadNiceness } from '../support/process-threads.js';
import { tempDir } from '../support/test-service.js';

const HASH_CONCURRENCY = 12;
const SLOW_ENOUGH_TO_OVERLAP = { ARGON2_MEMORY_KIB: '4096', ARGON2_TIME_COST: '3', RATE_LIMIT_MAX: '100000', THROTTLE_MAX_FAILURES: '1000' };
const NICE = 5;
const CREDENTIALS = { email: 'threads@example.com', password: 'analytical engine 1843' };

const threadsOf = (service: ChildService): number => threadCpuTicks(service.process.pid ?? NaN).size;

async function signInWaves(service: ChildService, simultaneous: number, waves: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let wave = 0; wave < waves; wave += 1) {
    const answers = await Promise.all(Array.from({ length: simultaneous }, () => postJson(service.url, '/auth/sign-in', CREDENTIALS)));
    statuses.push(...answers.map((res) => res.status));
  }
  return statuses;
}

describe('Hashing threads: the service started as `npm start` starts it hashes on HASH_CONCURRENCY threads', () => {
  let wide: ChildService;
  let narrow: ChildService;
  before(async function () {
    this.timeout(120_000);
    [wide, narrow] = await Promise.all([
      spawnService({ DATA_DIR: tempDir('threads-12'), HASH_CONCURRENCY: String(HASH_CONCURRENCY), ...SLOW_ENOUGH_TO_OVERLAP }),
      spawnService({ DATA_DIR: tempDir('threads-1'), HASH_CONCURRENCY: '1', HASH_THREAD_NICE: String(NICE), ...SLOW_ENOUGH_TO_OVERLAP }),
    ]);
    for (const service of [wide, narrow]) expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: CREDENTIALS.email }))).status).to.equal(201);
  });
  after(async () => Promise.all([wide, narrow].filter(Boolean).map((service) => killHard(service.process))));

  it(`with HASH_CONCURRENCY=${HASH_CONCURRENCY}, at least ${HASH_CONCURRENCY} threads besides the event loop work while sign-ins keep the hashing busy`, async function () {
    this.timeout(120_000);
    const pid = wide.process.pid ?? NaN;
    const before = threadCpuTicks(pid);
    const statuses = await signInWaves(wide, 2 * HASH_CONCURRENCY, 4);
    const busy = busyWorkerThreads(pid, before, threadCpuTicks(pid));

    expect(statuses.every((status) => status === 201), `every sign-in succeeds: ${[...new Set(statuses)].join(', ')}`).to.equal(true);
    expect(busy, 'threads that used CPU during the load, the event loop aside').to.be.at.least(HASH_CONCURRENCY);
  });

  it(`libuv's pool grows with HASH_CONCURRENCY: ${threadPoolSizeFor(HASH_CONCURRENCY) - threadPoolSizeFor(1)} more threads at ${HASH_CONCURRENCY} than at 1, under the same load`, async function () {
    this.timeout(120_000);
    await Promise.all([signInWaves(wide, 4, 2), signInWaves(narrow, 4, 2)]);
    expect(threadsOf(wide) - threadsOf(narrow)).to.equal(threadPoolSizeFor(HASH_CONCURRENCY) - threadPoolSizeFor(1));
  });

  it(`HASH_THREAD_NICE lowers the priority of exactly the pool's threads (${threadPoolSizeFor(1)} at HASH_CONCURRENCY=1)`, () => {
    const lowered = (service: ChildService) => {
      const niceness = threadNiceness(service.process.pid ?? NaN);
      return [...niceness.values()].map((nice) => nice - (niceness.get(service.process.pid ?? NaN) ?? NaN)).filter((by) => by !== 0);
    };
    expect(lowered(narrow)).to.deep.equal(Array.from({ length: threadPoolSizeFor(1) }, () => NICE));
    expect(lowered(wide)).to.deep.equal([]);
  });

  it('the container image starts the same entry as npm start', () => {
    const command = /^CMD (\[.*\])$/m.exec(readFileSync('Dockerfile', 'utf8'))?.[1];
    const { node, entry } = startEntry();
    expect(JSON.parse(command ?? '[]')).to.deep.equal(['node', ...node, `dist/${entry}`]);
  });
});
