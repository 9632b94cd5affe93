import type { Logger } from 'pino';
import type { DeliveryReport } from '../../application/use-cases/deliver-mail/deliver-mail.handler.js';

/**
 * Runs the deliver-mail use case on a timer (never keeping the process alive), one run at a time, until a run
 * finds nothing due. A failed delivery is logged with its event id, never with the mail's content or link.
 */
export class MailDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly deliver: { execute(): Promise<DeliveryReport> },
    private readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'warn' | 'error'>,
  ) {}

  /** Delivers until nothing is due (or a run fails only). Resolves when done; never rejects. */
  async drain(): Promise<void> {
    for (;;) {
      let report: DeliveryReport;
      try {
        report = await this.deliver.execute();
      } catch (error) {
        this.logger.error({ err: error }, 'mail delivery could not read the outbox; retrying on the next tick');
        return;
      }
      for (const failure of report.failed) {
        this.logger.warn({ eventId: failure.eventId, attempts: failure.attempts, err: failure.error }, 'mail delivery failed; will retry');
      }
      if (report.sent === 0) return;
    }
  }

  start(): void {
    this.timer ??= setInterval(() => {
      this.running ??= this.drain().finally(() => (this.running = undefined));
    }, this.intervalMs).unref();
  }

  /** Stops the timer and waits for a run in progress. Idempotent. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
