import { expect } from 'chai';
import { JobRunner } from '../../../src/infrastructure/jobs/job-runner.js';
import type { PeriodicJob } from '../../../src/infrastructure/jobs/periodic-job.js';
import { captureLogs } from '../../support/log-capture.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

const timeouts = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('JobRunner', () => {
  let runner: JobRunner | undefined;
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
  });

  it('runs every job of its list on its own interval, on timers that never keep the process alive', async () => {
    const fast = new GatedJob('fast', 5);
    const slow = new GatedJob('slow', 60_000);
    const before = timeouts();
    runner = new JobRunner([fast, slow], captureLogs('warn').logger);
    runner.start();
    runner.start();
    expect(timeouts(), 'unref-ed timers are not active resources').to.equal(before);
    await sleep(60);
    expect(fast.finished).to.be.greaterThan(2);
    expect(slow.started).to.equal(0);
  });

  it('never overlaps two runs of one job: a tick while a run is in flight is skipped', async () => {
    const job = new GatedJob('held', 5);
    job.held = true;
    runner = new JobRunner([job], captureLogs('warn').logger);
    runner.start();
    await sleep(50);
    expect(job.started).to.equal(1);
    job.release();
    await sleep(30);
    expect(job.started).to.be.greaterThan(1);
  });

  it('logs a failed run with the job name, never throws it, and runs again on the next tick', async () => {
    const logs = captureLogs('warn');
    const job = new GatedJob('failing', 5);
    job.failWith = new Error('store down');
    runner = new JobRunner([job], logs.logger);
    runner.start();
    await sleep(40);
    expect(job.started).to.be.greaterThan(1);
    const line = logs.parsed()[0];
    expect(line).to.include({ job: 'failing', msg: 'failing failed; the next run retries' });
    expect((line?.['err'] as { message?: string } | undefined)?.message).to.equal('store down');
  });

  it('stop() clears the timers and waits for the run in flight; nothing runs afterwards', async () => {
    const job = new GatedJob('held', 5);
    job.held = true;
    runner = new JobRunner([job], captureLogs('warn').logger);
    runner.start();
    await sleep(20);
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await sleep(20);
    expect(stopped, 'still waiting for the run in flight').to.equal(false);
    job.release();
    await stopping;
    expect(job.finished).to.equal(1);
    await sleep(20);
    expect(job.started).to.equal(1);
  });

  it('runNow() waits for the run in flight, then runs once more; it never rejects', async () => {
    const job = new GatedJob('held', 60_000);
    runner = new JobRunner([job], captureLogs('warn').logger);
    job.held = true;
    const first = runner.runNow(job);
    const second = runner.runNow(job);
    await sleep(10);
    expect(job.started, 'the second waits for the first').to.equal(1);
    job.release();
    await Promise.all([first, second]);
    expect(job.finished).to.equal(2);
    job.failWith = new Error('outbox unreadable');
    await runner.runNow(job);
    expect(job.finished).to.equal(3);
  });
});
