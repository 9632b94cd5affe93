import type { Logger } from 'pino';
import type { DeliveryReport } from '../../application/use-cases/deliver-mail/deliver-mail.handler.js';
import type { PeriodicJob } from './periodic-job.js';

/**
 * Runs the deliver-mail use case until a run finds nothing due. A failed delivery is logged with its event id, never
 * with the mail's content or link; it is retried with backoff by the use case, or given up (a dead letter: logged at
 * warn and counted by `deadLettered`).
 */
export class MailDispatchJob implements PeriodicJob {
  readonly name = 'mail dispatch';

  constructor(
    private readonly deliver: { execute(): Promise<DeliveryReport> },
    readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly deadLettered: () => void = () => undefined,
  ) {}

  /** Delivers until nothing is due; rejects only when the outbox cannot be read (the runner logs it). */
  async runOnce(): Promise<void> {
    for (;;) {
      const report = await this.deliver.execute();
      for (const { eventId, attempts, error, deadLetter } of report.failed) {
        if (!deadLetter) this.logger.warn({ eventId, attempts, err: error }, 'mail delivery failed; will retry');
        else {
          this.logger.warn({ eventId, attempts, err: error }, 'mail dead-lettered; it will not be retried');
          this.deadLettered();
        }
      }
      if (report.sent === 0) return;
    }
  }
}
