import type { Logger } from 'pino';
import type { DeliveryReport } from '../../application/use-cases/deliver-mail/deliver-mail.handler.js';
import type { PeriodicJob } from './periodic-job.js';

/**
 * Runs the deliver-mail use case until a run finds nothing due. A failed delivery is logged with its event id, never
 * with the mail's content or link; it is retried with backoff by the use case.
 */
export class MailDispatchJob implements PeriodicJob {
  readonly name = 'mail dispatch';

  constructor(
    private readonly deliver: { execute(): Promise<DeliveryReport> },
    readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  /** Delivers until nothing is due; rejects only when the outbox cannot be read (the runner logs it). */
  async runOnce(): Promise<void> {
    for (;;) {
      const report = await this.deliver.execute();
      for (const failure of report.failed) {
        this.logger.warn({ eventId: failure.eventId, attempts: failure.attempts, err: failure.error }, 'mail delivery failed; will retry');
      }
      if (report.sent === 0) return;
    }
  }
}
