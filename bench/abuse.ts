/**
 * `npm run bench:abuse`: sessions and mail under abuse (issue 23, "Must show"). Starts the service as `npm start` does
 * (compiled `dist/start.cjs`, LMDB in a temporary DATA_DIR) with cheap argon2 parameters and high rate limits, and
 * measures: (1) the session cap after many sign-ins to one account; (2) listing, sign-out of the others and a password
 * change with the account full of live sessions, while /health/live is sampled every 10 ms; (3) a reset request for
 * an address with 100,000 events against one for a fresh address; (4) whether the outbox keeps up with a mixed load
 * (sign-ups and reset requests) delivering to a local SMTP sink. Prints a table and one JSON object.
 * `--sessions N` (default 20000) sets the number of sign-ins of (1) and (2); `--mail-rate N` (default 300, the
 * issue's load) the paced load of (4), which also runs once as fast as 4 clients are answered (reported, no target);
 * `--only outbox` runs (4) alone.
 */
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { SMTPServer } from 'smtp-server';
import type { RecordedEvent } from '../src/application/ports/event-log.port.js';
import { ConfigError, loadConfig } from '../src/infrastructure/config/config.js';
import { StoreEventLog } from '../src/infrastructure/storage/store-event-log.js';
import { ownerOf } from '../src/infrastructure/storage/commit-plan.js';
import { LmdbStore } from '../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbTables } from '../src/infrastructure/lmdb/lmdb-tables.js';
import { SmtpMailSender } from '../src/infrastructure/mail/smtp-mail-sender.js';
import { type Server, startServer } from './processes.js';
import { median } from './timing.js';
import { startEntry } from '../tests/support/child-service.js';

const { values: options } = parseArgs({
  options: { sessions: { type: 'string', default: '20000' }, 'mail-rate': { type: 'string', default: '300' }, only: { type: 'string' } },
});
/** The paced mail load of (4): the issue's "mixed load producing ~300 mail events/s". */
const MAIL_RATE = Number(options['mail-rate']);
if (!Number.isInteger(MAIL_RATE) || MAIL_RATE < 1) throw new Error(`--mail-rate must be a positive integer, not ${options['mail-rate']}`);
const SIGN_INS = Number(options.sessions);
if (!Number.isInteger(SIGN_INS) || SIGN_INS < 1) throw new Error(`--sessions must be a positive integer, not ${options.sessions}`);

/** The entry and node options `npm start` runs (package.json), as the tests read them. */
const { entry: STARTED, node: NODE_ARGS } = startEntry();
const ENTRY = join('dist', STARTED);
const PASSWORD = 'analytical engine 1843';
const NEW_PASSWORD = 'difference engine 1822';
const SEED_CONCURRENCY = 16;
const LIST_PAGES = 200;
const RESET_EVENTS = 100_000;
const RESET_SAMPLES = 50;
const RESET_WARMUP = 2;
const MAIL_LOAD_SECONDS = 20;
const MAIL_WORKERS = 4;
/** Clients of the paced load: enough that a slow answer never delays the next request's start. */
const PACED_WORKERS = 64;
const SINK_CEILING_CONCURRENCY = 8;
const MAIL_POLL_INTERVAL_MS = 50;
/** How long the outbox is given after the load to deliver what is left (the rest is reported, not waited for). */
const DRAIN_WAIT_MS = 10_000;
const TARGETS = { sessionCap: 50, listP99Ms: 20, signOutOthersMs: 100, passwordChangeMs: 100, healthP99Ms: 20, resetRatioMax: 1.2, pendingGrowthPerProduced: 0.05 };
/** Cheap hashing: this benchmark measures session and mail handling, not argon2 (see bench/run.ts for that). */
const CHEAP_ARGON2 = { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' };
const BASE_ENV = {
  NODE_ENV: 'development',
  STORAGE: 'lmdb',
  LOG_LEVEL: 'info',
  RATE_LIMIT_MAX: '1000000',
  PASSWORD_RESET_RATE_LIMIT_MAX: '1000000',
  PASSWORD_RESET_MAX_PER_ADDRESS: '100',
  THROTTLE_MAX_FAILURES: '1000',
  ...CHEAP_ARGON2,
};

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};
const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Answer {
  readonly status: number;
  readonly body: any;
  readonly ms: number;
}

async function call(server: Server, method: string, path: string, body?: unknown, access?: string): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (access !== undefined) headers['authorization'] = `Bearer ${access}`;
  const started = performance.now();
  const res = await fetch(server.url + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (/metrics)
  }
  return { status: res.status, body: parsed, ms };
}

const expectStatus = (answer: Answer, status: number, what: string): Answer => {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
};

/** Runs `work(i)` for i < count, `concurrency` at a time. */
async function inParallel(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

const signUp = async (server: Server, email: string) =>
  expectStatus(await call(server, 'POST', '/auth/sign-up', { name: 'Abuse', lastname: 'Bench', email, password: PASSWORD }), 201, `sign-up ${email}`);

/**
 * `count` sign-ins to one account, 16 at a time; each must end in 201. A 503 (the sign-in lost its compare-and-swap
 * on the account every time, or was shed) is counted and retried after a few ms. Resolves to the last access token,
 * the rate of 201s and the number of 503s.
 */
async function signInMany(server: Server, email: string, password: string, count: number): Promise<{ access: string; perSecond: number; refused503: number }> {
  let access = '';
  let refused503 = 0;
  const started = performance.now();
  await inParallel(count, SEED_CONCURRENCY, async (i) => {
    for (;;) {
      const answer = await call(server, 'POST', '/auth/sign-in', { email, password });
      if (answer.status === 503) {
        refused503 += 1;
        await sleep(5 + Math.random() * 20);
        continue;
      }
      access = expectStatus(answer, 201, `sign-in ${i}`).body.data.accesstoken;
      return;
    }
  });
  return { access, perSecond: count / ((performance.now() - started) / 1000), refused503 };
}

/** The live sessions of the account, GET /auth/sessions pages followed to the end. */
async function countSessions(server: Server, access: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = expectStatus(await call(server, 'GET', `/auth/sessions?limit=100${query}`, undefined, access), 200, 'list sessions');
    count += (page.body.data.sessions as unknown[]).length;
    cursor = page.body.data.nextCursor;
  } while (cursor !== null);
  return count;
}

/** The phases of (2) whose /health/live answers the target is about: the measured requests, not the seeding sign-ins. */
const MEASURED_PHASES = ['list', 'sign-out others', 'password change'] as const;

/** GET /health/live every 10 ms in the background, each answer's latency filed under the phase it started in. */
function sampleHealth(server: Server) {
  const byPhase = new Map<string, number[]>();
  let phase = 'idle';
  let running = true;
  const loop = (async () => {
    while (running) {
      const tick = performance.now();
      const current = phase;
      const answer = await call(server, 'GET', '/health/live').catch(() => ({ status: 0, ms: NaN }));
      const list = byPhase.get(current) ?? [];
      list.push(answer.status === 200 ? answer.ms : Infinity);
      byPhase.set(current, list);
      await sleep(Math.max(0, 10 - (performance.now() - tick)));
    }
  })();
  return {
    phase: (name: string) => void (phase = name),
    stop: async () => {
      running = false;
      await loop;
      const summary = (values: number[]) => ({ samples: values.length, p50Ms: round(percentile(values, 50), 2), p99Ms: round(percentile(values, 99), 2), maxMs: round(Math.max(...values), 1) });
      const of = (names: readonly string[]) => names.flatMap((name) => byPhase.get(name) ?? []);
      return { measured: summary(of(MEASURED_PHASES)), byPhase: Object.fromEntries([...byPhase].map(([name, values]) => [name, summary(values)])) };
    },
  };
}

/** The largest SESSIONS_MAX_PER_ACCOUNT up to `wanted` that the configuration accepts (its schema bounds it). */
function largestSessionCap(wanted: number): number {
  const accepted = (value: number) => {
    try {
      loadConfig({ SESSIONS_MAX_PER_ACCOUNT: String(value) });
      return true;
    } catch (error) {
      if (error instanceof ConfigError) return false;
      throw error;
    }
  };
  if (accepted(wanted)) return wanted;
  let [low, high] = [1, wanted];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (accepted(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/** A local SMTP server that accepts every mail and counts it (no parsing: the sink should cost little CPU). */
async function startSink(): Promise<{ url: string; delivered: () => number; close: () => Promise<void> }> {
  let delivered = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    disableReverseLookup: true,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        delivered += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, delivered: () => delivered, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * The sink's own ceiling for the service's sender (SmtpMailSender: pooled connections with Nagle off, CONCURRENCY
 * mails at once, as MAIL_SEND_CONCURRENCY's default): mails per second sent straight from this process.
 */
async function sinkCeiling(url: string, mails: number): Promise<number> {
  const sender = new SmtpMailSender(url, 'bench@example.com', 10_000, SINK_CEILING_CONCURRENCY);
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: SINK_CEILING_CONCURRENCY }, async () => {
    for (let i = next++; i < mails; i = next++) {
      await sender.send({ to: `ceiling-${i}@example.com`, subject: 'ceiling', text: 'a mail of about the size of the service\'s', html: '<p>a mail</p>', idempotencyKey: `ceiling-${i}` });
    }
  }));
  sender.close();
  return mails / ((performance.now() - started) / 1000);
}

const pendingMails = async (server: Server): Promise<number> => {
  const text = String((await call(server, 'GET', '/metrics')).body);
  const line = /^account_mail_pending(?:\{[^}]*\})? (\S+)$/m.exec(text);
  return line ? Number(line[1]) : NaN;
};

/** Least-squares slope of y over x. */
const slope = (points: readonly { x: number; y: number }[]): number => {
  const n = points.length;
  const mx = points.reduce((sum, p) => sum + p.x, 0) / n;
  const my = points.reduce((sum, p) => sum + p.y, 0) / n;
  const num = points.reduce((sum, p) => sum + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((sum, p) => sum + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
};

type Start = (name: string, env: Record<string, string>) => Promise<Server>;

/**
 * (4) The outbox under a mixed load: sign-ups (a verification mail each) and reset requests (a reset mail each),
 * MAIL_LOAD_SECONDS long. `ratePerSecond`: the requests are paced to that many a second (open loop: a request is
 * started on schedule, whatever the previous ones do); null: MAIL_WORKERS clients as fast as they are answered.
 */
async function outboxUnderLoad(start: Start, ratePerSecond: number | null) {
  const workers = ratePerSecond === null ? MAIL_WORKERS : PACED_WORKERS;
  const pace = ratePerSecond === null ? `${MAIL_WORKERS} clients as fast as answered` : `paced to ${ratePerSecond} requests a second`;
  log(`(4) ${MAIL_LOAD_SECONDS} s of sign-ups and reset requests (${pace}), SMTP to a local sink, MAIL_POLL_INTERVAL_MS ${MAIL_POLL_INTERVAL_MS}...`);
  const sink = await startSink();
  const ceilingMails = 1000;
  const ceilingPerSecond = await sinkCeiling(sink.url, ceilingMails);
  const sinkBefore = sink.delivered();
  const mail = await start(ratePerSecond === null ? 'mail-all-out' : 'mail-paced', { SMTP_URL: sink.url, MAIL_POLL_INTERVAL_MS: String(MAIL_POLL_INTERVAL_MS) });
  let produced = 0;
  let signUps = 0;
  let resets = 0;
  const accounts: string[] = [];
  const samples: { t: number; pending: number; delivered: number; produced: number }[] = [];
  const loadStarted = performance.now();
  const elapsed = () => (performance.now() - loadStarted) / 1000;
  let loading = true;
  const sampler = (async () => {
    while (loading) {
      samples.push({ t: elapsed(), pending: await pendingMails(mail), delivered: sink.delivered() - sinkBefore, produced });
      await sleep(250);
    }
  })();
  let tickets = 0;
  /** Paced: waits for the next request's slot (false once the load is over); all out: goes on at once. */
  const nextSlot = async (): Promise<boolean> => {
    if (ratePerSecond === null) return elapsed() < MAIL_LOAD_SECONDS;
    const due = tickets++ / ratePerSecond;
    if (due >= MAIL_LOAD_SECONDS) return false;
    const wait = due - elapsed();
    if (wait > 0) await sleep(wait * 1000);
    return true;
  };
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let i = 0; await nextSlot(); i += 1) {
        if (i % 2 === 0 || accounts.length === 0) {
          const address = `mail-${worker}-${i}@example.com`;
          await signUp(mail, address);
          accounts.push(address);
          signUps += 1;
        } else {
          // Each address gets at most PASSWORD_RESET_MAX_PER_ADDRESS resets; addresses are picked round-robin.
          const address = accounts[(resets * 7) % accounts.length] ?? '';
          expectStatus(await call(mail, 'POST', '/auth/password-reset', { email: address }), 202, 'reset');
          resets += 1;
        }
        produced += 1;
      }
    }),
  );
  const loadSeconds = elapsed();
  loading = false;
  await sampler;
  const deliveredDuringLoad = sink.delivered() - sinkBefore;
  const pendingAtEnd = await pendingMails(mail);
  const drainStarted = performance.now();
  while (sink.delivered() - sinkBefore < produced && performance.now() - drainStarted < DRAIN_WAIT_MS) await sleep(50);
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  const deliveredInAll = sink.delivered() - sinkBefore;
  const pendingAfterDrain = await pendingMails(mail);
  await mail.stop();
  await sink.close();
  const producedPerSecond = produced / loadSeconds;
  const pendingGrowthPerSecond = slope(samples.map(({ t, pending }) => ({ x: t, y: pending })));
  const pendingFlat = pendingGrowthPerSecond <= TARGETS.pendingGrowthPerProduced * producedPerSecond;
  const part4 = {
    load: pace,
    seconds: round(loadSeconds),
    pollIntervalMs: MAIL_POLL_INTERVAL_MS,
    signUps,
    resetRequests: resets,
    produced,
    producedPerSecond: round(producedPerSecond),
    deliveredPerSecond: round(deliveredDuringLoad / loadSeconds),
    pending: {
      source: 'account_mail_pending (GET /metrics), every 250 ms',
      samples: samples.length,
      p50: percentile(samples.map((s) => s.pending), 50),
      max: Math.max(...samples.map((s) => s.pending)),
      atEnd: pendingAtEnd,
      growthPerSecond: round(pendingGrowthPerSecond, 2),
      everySecond: samples.filter((_, i) => i % 4 === 0).map((s) => s.pending),
    },
    sinkCeilingPerSecond: { value: round(ceilingPerSecond), how: `${ceilingMails} mails sent straight to the sink by the service's SmtpMailSender, ${SINK_CEILING_CONCURRENCY} at once` },
    afterLoad: {
      waitedSeconds: round(drainSeconds, 2),
      delivered: deliveredInAll,
      of: produced,
      pending: pendingAfterDrain,
      deliveredPerSecondWhileDraining: round((deliveredInAll - deliveredDuringLoad) / drainSeconds),
    },
    target: `pending flat: least-squares growth <= ${TARGETS.pendingGrowthPerProduced} x produced/s, and every mail delivered`,
    verdict: verdict(pendingFlat && deliveredInAll === produced),
  };

  return part4;
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  log('building dist/ (the service runs as `npm start` runs it)...');
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'account-abuse-'));
  const servers: Server[] = [];
  const start = async (name: string, env: Record<string, string>) => {
    const server = await startServer(ENTRY, { ...BASE_ENV, DATA_DIR: join(dataDir, name), ...env }, join(dataDir, `${name}.log`), NODE_ARGS);
    servers.push(server);
    return server;
  };
  try {
    if (options.only !== undefined) {
      if (options.only !== 'outbox') throw new Error(`--only takes outbox, not ${options.only}`);
      const paced = await outboxUnderLoad(start, MAIL_RATE);
      const allOut = await outboxUnderLoad(start, null);
      console.log(JSON.stringify({ date: new Date().toISOString(), machine: { cpus: availableParallelism(), node: process.version }, paced, allOut }, null, 2));
      return;
    }
    // (1) The cap: SIGN_INS sign-ins to one account with the default SESSIONS_MAX_PER_ACCOUNT.
    log(`(1) ${SIGN_INS} sign-ins to one account, SESSIONS_MAX_PER_ACCOUNT default (${loadConfig({}).sessions.maxPerAccount})...`);
    const capped = await start('cap', {});
    await signUp(capped, 'cap@example.com');
    const capSeed = await signInMany(capped, 'cap@example.com', PASSWORD, SIGN_INS);
    const liveAfterCap = await countSessions(capped, capSeed.access);
    await capped.stop();
    const part1 = { signIns: SIGN_INS, signInsPerSecond: round(capSeed.perSecond), refused503: capSeed.refused503, liveSessions: liveAfterCap, target: `<= ${TARGETS.sessionCap}`, verdict: verdict(liveAfterCap <= TARGETS.sessionCap) };

    // (2) An account full of live sessions: listing, sign-out of the others, a password change; /health/live meanwhile.
    const cap = largestSessionCap(SIGN_INS);
    const capNote = cap < SIGN_INS ? `SESSIONS_MAX_PER_ACCOUNT=${SIGN_INS} is refused by the configuration (its bound); ran with ${cap}, the largest it accepts, so ${cap} sessions are live` : `SESSIONS_MAX_PER_ACCOUNT=${cap}: every session live`;
    log(`(2) ${capNote}; ${SIGN_INS} sign-ins, then ${LIST_PAGES} pages, sign-out others, password change, /health/live every 10 ms...`);
    const full = await start('full', { SESSIONS_MAX_PER_ACCOUNT: String(cap) });
    const email = 'full@example.com';
    await signUp(full, email);
    const health = sampleHealth(full);
    health.phase('seeding');
    const fullSeed = await signInMany(full, email, PASSWORD, SIGN_INS);
    const liveBefore = await countSessions(full, fullSeed.access);
    health.phase('list');
    const listMs: number[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < LIST_PAGES; i += 1) {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = expectStatus(await call(full, 'GET', `/auth/sessions?limit=100${query}`, undefined, fullSeed.access), 200, 'list sessions');
      listMs.push(page.ms);
      cursor = page.body.data.nextCursor;
    }
    health.phase('sign-out others');
    const signOut = expectStatus(await call(full, 'POST', '/auth/sign-out', { scope: 'others' }, fullSeed.access), 204, 'sign-out others');
    const liveAfterSignOut = await countSessions(full, fullSeed.access);
    health.phase('refill');
    const refill = await signInMany(full, email, PASSWORD, Math.min(SIGN_INS, cap));
    const liveBeforePassword = await countSessions(full, refill.access);
    health.phase('password change');
    const change = expectStatus(await call(full, 'POST', '/auth/password', { currentpassword: PASSWORD, newpassword: NEW_PASSWORD }, refill.access), 200, 'password change');
    const liveAfterPassword = await countSessions(full, refill.access);
    health.phase('idle');
    const healthSummary = await health.stop();
    await full.stop();
    const listP50 = percentile(listMs, 50);
    const listP99 = percentile(listMs, 99);
    const part2 = {
      sessionCap: cap,
      capNote,
      signIns: SIGN_INS,
      signInsPerSecond: round(fullSeed.perSecond),
      refused503: fullSeed.refused503 + refill.refused503,
      liveSessions: liveBefore,
      listPages: { pages: LIST_PAGES, limit: 100, p50Ms: round(listP50, 2), p99Ms: round(listP99, 2), target: `p99 < ${TARGETS.listP99Ms} ms`, verdict: verdict(listP99 < TARGETS.listP99Ms) },
      signOutOthers: { revoked: liveBefore - liveAfterSignOut, ms: round(signOut.ms, 2), liveAfter: liveAfterSignOut, target: `< ${TARGETS.signOutOthersMs} ms`, verdict: verdict(signOut.ms < TARGETS.signOutOthersMs) },
      passwordChange: { liveBefore: liveBeforePassword, ms: round(change.ms, 2), liveAfter: liveAfterPassword, target: `< ${TARGETS.passwordChangeMs} ms`, verdict: verdict(change.ms < TARGETS.passwordChangeMs) },
      healthLive: { ...healthSummary, target: `p99 < ${TARGETS.healthP99Ms} ms (during ${MEASURED_PHASES.join(', ')})`, verdict: verdict(healthSummary.measured.p99Ms < TARGETS.healthP99Ms) },
    };

    // (3) A reset request for an address with RESET_EVENTS events against one for a fresh address.
    log(`(3) seeding ${RESET_EVENTS} SignInFailed events with the service stopped, then ${RESET_SAMPLES} reset requests each, alternating...`);
    const resetEnv = {};
    const abused = 'abused@example.com';
    const fresh = 'fresh@example.com';
    let resetService = await start('reset', resetEnv);
    await signUp(resetService, abused);
    await signUp(resetService, fresh);
    await resetService.stop();
    const seedStarted = performance.now();
    const store = LmdbStore.open(join(dataDir, 'reset'));
    try {
      const userId = (await ownerOf(new LmdbTables(store), 'email', abused)) ?? undefined;
      if (userId === undefined) throw new Error(`${abused} is not in the store`);
      const eventLog = new StoreEventLog(new LmdbTables(store));
      const now = Date.now();
      const batch = 5_000;
      for (let done = 0; done < RESET_EVENTS; done += batch) {
        const events = Array.from({ length: Math.min(batch, RESET_EVENTS - done) }, (_, i): RecordedEvent => ({
          type: 'SignInFailed',
          aggregateId: userId,
          // Spread over the last 23 hours, oldest first: inside the failure window and the retention period.
          occurredAt: new Date(now - 23 * 3_600_000 + Math.floor(((done + i) * 23 * 3_600_000) / RESET_EVENTS)),
          payload: { email: abused, reason: 'wrong_password' },
          eventId: randomUUID(),
          metadata: { requestId: null, clientIp: '203.0.113.7', userAgent: 'abuse-bench' },
        }));
        await eventLog.append(events);
      }
    } finally {
      await store.close();
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    resetService = await start('reset', resetEnv);
    const abusedMs: number[] = [];
    const freshMs: number[] = [];
    for (let i = 0; i < RESET_SAMPLES + RESET_WARMUP; i += 1) {
      const a = expectStatus(await call(resetService, 'POST', '/auth/password-reset', { email: abused }), 202, 'reset (abused)');
      const f = expectStatus(await call(resetService, 'POST', '/auth/password-reset', { email: fresh }), 202, 'reset (fresh)');
      if (i < RESET_WARMUP) continue;
      abusedMs.push(a.ms);
      freshMs.push(f.ms);
    }
    await resetService.stop();
    const resetRatio = median(abusedMs) / median(freshMs);
    const part3 = {
      events: RESET_EVENTS,
      seedSeconds: round(seedSeconds),
      requestsEach: RESET_SAMPLES,
      abusedMedianMs: round(median(abusedMs), 2),
      freshMedianMs: round(median(freshMs), 2),
      abusedP99Ms: round(percentile(abusedMs, 99), 2),
      freshP99Ms: round(percentile(freshMs, 99), 2),
      ratio: round(resetRatio, 3),
      target: `ratio <= ${TARGETS.resetRatioMax}`,
      verdict: verdict(resetRatio <= TARGETS.resetRatioMax),
    };

    const part4 = await outboxUnderLoad(start, MAIL_RATE);
    const part4AllOut = await outboxUnderLoad(start, null);

    const results = {
      date: new Date().toISOString(),
      command: `npm run bench:abuse${SIGN_INS === 20000 ? '' : ` -- --sessions ${SIGN_INS}`}`,
      machine: { cpus: availableParallelism(), model: cpus()[0]?.model ?? 'unknown', loadAverageAtStart, node: process.version },
      service: { entry: ENTRY, storage: 'lmdb', env: BASE_ENV },
      note: 'argon2 m=1024 KiB, t=1 on purpose: this measures session and mail handling, not hashing (npm run bench measures hashing)',
      sessionCap: part1,
      fullAccount: part2,
      resetRequest: part3,
      outbox: part4,
      outboxAllOut: { ...part4AllOut, target: 'none: how fast this machine produces and delivers with no pacing (the load generator and the sink share its CPUs)', verdict: 'INFO' },
      totalSeconds: round((performance.now() - started) / 1000),
    };
    const rows = [
      { part: '(1) live sessions after sign-ins, default cap', figure: `${part1.liveSessions} (${SIGN_INS} sign-ins, ${part1.refused503} x 503 retried)`, target: part1.target, verdict: part1.verdict },
      { part: `(2) GET /auth/sessions?limit=100, ${part2.liveSessions} live`, figure: `p50 ${part2.listPages.p50Ms} ms, p99 ${part2.listPages.p99Ms} ms`, target: part2.listPages.target, verdict: part2.listPages.verdict },
      { part: '(2) POST /auth/sign-out scope others', figure: `${part2.signOutOthers.ms} ms (${part2.signOutOthers.revoked} ended)`, target: part2.signOutOthers.target, verdict: part2.signOutOthers.verdict },
      { part: '(2) POST /auth/password', figure: `${part2.passwordChange.ms} ms (${part2.passwordChange.liveBefore} live before)`, target: part2.passwordChange.target, verdict: part2.passwordChange.verdict },
      { part: '(2) GET /health/live meanwhile', figure: `p50 ${part2.healthLive.measured.p50Ms} ms, p99 ${part2.healthLive.measured.p99Ms} ms (seeding: p99 ${part2.healthLive.byPhase['seeding']?.p99Ms ?? NaN} ms)`, target: part2.healthLive.target, verdict: part2.healthLive.verdict },
      { part: `(3) reset: ${RESET_EVENTS} events / fresh`, figure: `${part3.abusedMedianMs} / ${part3.freshMedianMs} ms = ${part3.ratio}`, target: part3.target, verdict: part3.verdict },
      { part: `(4) outbox, paced ${MAIL_RATE}/s: produced/s, delivered/s`, figure: `${part4.producedPerSecond} / ${part4.deliveredPerSecond} (sink ceiling ${part4.sinkCeilingPerSecond.value}); pending max ${part4.pending.max}, +${part4.pending.growthPerSecond}/s`, target: 'pending flat, all delivered', verdict: part4.verdict },
      { part: '(4) outbox, all out: produced/s, delivered/s', figure: `${part4AllOut.producedPerSecond} / ${part4AllOut.deliveredPerSecond}; pending max ${part4AllOut.pending.max}, +${part4AllOut.pending.growthPerSecond}/s`, target: '(none)', verdict: 'INFO' },
    ];
    console.table(rows);
    console.log(JSON.stringify(results, null, 2));
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
