import { expect } from 'chai';
import { JobRunner, type Ticker } from '../../../src/infrastructure/jobs/job-runner.js';
import type { PeriodicJob } from '../../../src/infrastructure/jobs/periodic-job.js';
import { captureLogs } from '../../support/log-capture.js';

/** Lets every promise settled so far run its callbacks (one turn of the event loop). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A job that counts its runs; each run waits for `release()` while `held`. */
class GatedJob implements PeriodicJob {
  started = 0;
  finished = 0;
  held = false;
  failWith: Error | null = null;
  private waiting: Array<() => void> = [];

  constructor(
    readonly name: string,
    readonly intervalMs: number,
  ) {}

  async runOnce(): Promise<void> {
    this.started += 1;
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.finished += 1;
    if (this.failWith) throw this.failWith;
  }

  release(): void {
    this.held = false;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/** A ticker the test drives: `tick(ms)` fires every timer of that interval once; no wall clock. */
class ManualTicker implements Ticker {
  private readonly timers = new Set<{ readonly intervalMs: number; readonly tick: () => void }>();

  every(intervalMs: number, tick: () => void): () => void {
    const timer = { intervalMs, tick };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  async tick(intervalMs: number, times = 1): Promise<void> {
    for (let i = 0; i < times; i++) {
      for (const timer of [...this.timers]) if (timer.intervalMs === intervalMs) timer.tick();
      await settled();
    }
  }

  get active(): number {
    return this.timers.size;
  }
}

const timeouts = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('JobRunner', () => {
  let runner: JobRunner | undefined;
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
  });

  it("runs every job of its list on its own interval, one timer each, however often it is started", async () => {
    const ticker = new ManualTicker();
    const fast = new GatedJob('fast', 5);
    const slow = new GatedJob('slow', 60_000);
    runner = new JobRunner([fast, slow], captureLogs('warn').logger, ticker);
    runner.start();
    runner.start();
    expect(ticker.active).to.equal(2);
    await ticker.tick(5, 3);
    expect(fast.finished).to.equal(3);
    expect(slow.started).to.equal(0);
    await ticker.tick(60_000);
    expect(slow.finished).to.equal(1);
  });

  it("on Node's timers, never keeps the process alive", async () => {
    const before = timeouts();
    runner = new JobRunner([new GatedJob('slow', 60_000)], captureLogs('warn').logger);
    runner.start();
    expect(timeouts(), 'unref-ed timers are not active resources').to.equal(before);
  });

  it('never overlaps two runs of one job: a tick while a run is in flight is skipped', async () => {
    const ticker = new ManualTicker();
    const job = new GatedJob('held', 5);
    job.held = true;
    runner = new JobRunner([job], captureLogs('warn').logger, ticker);
    runner.start();
    await ticker.tick(5, 10);
    expect(job.started).to.equal(1);
    job.release();
    await settled();
    await ticker.tick(5);
    expect(job.started).to.equal(2);
  });

  it('logs a failed run with the job name, never throws it, and runs again on the next tick', async () => {
    const ticker = new ManualTicker();
    const logs = captureLogs('warn');
    const job = new GatedJob('failing', 5);
    job.failWith = new Error('store down');
    runner = new JobRunner([job], logs.logger, ticker);
    runner.start();
    await ticker.tick(5, 2);
    expect(job.started).to.equal(2);
    const line = logs.parsed()[0];
    expect(logs.parsed()).to.have.length(2);
    expect(line).to.include({ job: 'failing', msg: 'failing failed; the next run retries' });
    expect((line?.['err'] as { message?: string } | undefined)?.message).to.equal('store down');
  });

  it('stop() stops the timers and waits for the run in flight; nothing runs afterwards', async () => {
    const ticker = new ManualTicker();
    const job = new GatedJob('held', 5);
    job.held = true;
    runner = new JobRunner([job], captureLogs('warn').logger, ticker);
    runner.start();
    await ticker.tick(5);
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await settled();
    expect(stopped, 'still waiting for the run in flight').to.equal(false);
    expect(ticker.active).to.equal(0);
    job.release();
    await stopping;
    expect(job.finished).to.equal(1);
    await ticker.tick(5, 3);
    expect(job.started).to.equal(1);
  });

  it('runNow() waits for the run in flight, then runs once more; it never rejects', async () => {
    const job = new GatedJob('held', 60_000);
    runner = new JobRunner([job], captureLogs('warn').logger, new ManualTicker());
    job.held = true;
    const first = runner.runNow(job);
    const second = runner.runNow(job);
    await settled();
    expect(job.started, 'the second waits for the first').to.equal(1);
    job.release();
    await Promise.all([first, second]);
    expect(job.finished).to.equal(2);
    job.failWith = new Error('outbox unreadable');
    await runner.runNow(job);
    expect(job.finished).to.equal(3);
  });
});
