import { join } from 'node:path';
import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { ACTIVITY_READ_MODEL } from '../../application/ports/activity-read-model.port.js';
import { CAPABILITY_NOTICES } from '../../application/ports/capability-notices.port.js';
import { CLOCK, type Clock } from '../../application/ports/clock.port.js';
import { EVENT_LOG } from '../../application/ports/event-log.port.js';
import { ID_GENERATOR } from '../../application/ports/id-generator.port.js';
import { MAIL_SENDER } from '../../application/ports/mail-sender.port.js';
import type { Config } from '../config/config.js';
import { FileMailSender } from '../mail/file-mail-sender.js';
import { SmtpMailSender } from '../mail/smtp-mail-sender.js';
import { clusterMetricsOf } from '../cluster/cluster-metrics.js';
import { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import { EventLogActivityReadModel } from '../read-model/event-log-activity-read-model.js';
import { RandomUuidGenerator, SystemClock } from '../system.js';
import { portBinder } from './bind-port.js';
import { CONFIG, HASH_LIMITER, LOGGER, METRICS, RATE_LIMIT_STORE, SCHEMA, STORAGE, CAPABILITY_JOBS } from './tokens.js';
import { CORE_SCHEMA } from '../storage/ownership.js';
import { redisRateLimitStore } from '../rate-limit/redis-rate-limit-store.js';

export interface CoreSettings {
  readonly config: Config;
  readonly logger: Logger;
  /** Replaces the system clock (tests). */
  readonly clock?: Clock | undefined;
}

/** The configuration, logger, clock and ids, metrics, the mail sender, and the read models that work over any storage. */
export const coreModule = ({ config, logger, clock }: CoreSettings) =>
  new ContainerModule(({ bind, isBound }) => {
    const bindPort = portBinder(bind, isBound);
    bindPort(CONFIG, () => config);
    bindPort(LOGGER, () => logger);
    bindPort(CLOCK, () => clock ?? new SystemClock());
    bindPort(ID_GENERATOR, () => new RandomUuidGenerator());
    bindPort(METRICS, (get) => {
      const metrics = new PrometheusMetrics(get(HASH_LIMITER), clusterMetricsOf);
      const { sizes, outbox } = get(STORAGE);
      if (sizes) metrics.observeStore(sizes);
      metrics.observeOutbox(() => outbox.pendingCount());
      return metrics;
    });
    bindPort(MAIL_SENDER, (get) =>
      config.mail.transport === 'smtp' && config.mail.smtpUrl !== undefined
        ? new SmtpMailSender(config.mail.smtpUrl, config.mail.from, config.mail.leaseMs, config.mail.sendConcurrency)
        : new FileMailSender(join(config.storage.dataDir, 'mail'), config.mail.from, get(LOGGER)),
    );
    bindPort(ACTIVITY_READ_MODEL, (get) => new EventLogActivityReadModel(get(EVENT_LOG)));
    // The core's tables alone, unless the capabilities' module bound the composition's first.
    bindPort(SCHEMA, () => CORE_SCHEMA);
    bindPort(CAPABILITY_JOBS, () => []);
    // Composed without capabilities (compose binds theirs first): none declares a notice.
    bindPort(CAPABILITY_NOTICES, () => ({ noticeOf: () => null }));
    bindPort(RATE_LIMIT_STORE, (get) => {
      const { store } = config.rateLimit;
      if (store.kind !== 'redis') return null;
      const shared = redisRateLimitStore(store.url, get(LOGGER), (up) => get(METRICS).rateLimitStoreState(up));
      get(METRICS).observeRateLimitStore();
      return shared;
    });
  });
