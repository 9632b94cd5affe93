import { ContainerModule } from 'inversify';
import { CLOCK } from '../../application/ports/clock.port.js';
import { SESSION_REPOSITORY } from '../../application/ports/session-repository.port.js';
import { AddressIndexJob } from '../jobs/address-index.job.js';
import { EventRetentionJob } from '../jobs/event-retention.job.js';
import { ExpirySweepJob } from '../jobs/expiry-sweep.job.js';
import { JobRunner } from '../jobs/job-runner.js';
import { MailDispatchJob } from '../jobs/mail-dispatch.job.js';
import { SessionSweepJob } from '../jobs/session-sweep.job.js';
import { UnverifiedAccountSweepJob } from '../jobs/unverified-account-sweep.job.js';
import { portBinder } from './bind-port.js';
import { CONFIG, JOBS, JOB_RUNNER, LOGGER, CAPABILITY_JOBS, MAIL_DISPATCH_JOB, METRICS, SCHEMA, STORAGE, USE_CASES } from './tokens.js';

/** Every periodic job, in the one list the runner starts and stops. A new job is its class and one line here. */
export const jobsModule = new ContainerModule(({ bind, isBound }) => {
  const bindPort = portBinder(bind, isBound);
  bindPort(MAIL_DISPATCH_JOB, (get) => new MailDispatchJob(get(USE_CASES).deliverMail, get(CONFIG).mail.pollIntervalMs, get(LOGGER), { deadLettered: get(METRICS).mailDeadLettered, relayState: get(METRICS).mailRelayState }));
  bindPort(JOBS, (get) => {
    const { sessions, retention } = get(CONFIG);
    const { pruner, store } = get(STORAGE);
    return [
      new SessionSweepJob(get(SESSION_REPOSITORY), get(CLOCK), { intervalMs: sessions.sweepIntervalSeconds * 1000, batchSize: 500, maxBatches: 100 }, get(LOGGER)),
      new ExpirySweepJob(store, get(SCHEMA).expiringTables, get(CLOCK), sessions.sweepIntervalSeconds * 1000, get(LOGGER)),
      new UnverifiedAccountSweepJob(get(USE_CASES).sweepUnverifiedAccounts, sessions.sweepIntervalSeconds * 1000, get(LOGGER)),
      new AddressIndexJob(store, sessions.sweepIntervalSeconds * 1000, get(LOGGER)),
      ...(pruner
        ? [new EventRetentionJob(pruner, get(CLOCK), { retentionDays: retention.days, intervalMs: retention.sweepIntervalSeconds * 1000, batchSize: 500, maxBatches: 200 }, get(LOGGER))]
        : []),
      get(MAIL_DISPATCH_JOB),
      ...get(CAPABILITY_JOBS),
    ];
  });
  bindPort(JOB_RUNNER, (get) => new JobRunner(get(JOBS), get(LOGGER)));
});
