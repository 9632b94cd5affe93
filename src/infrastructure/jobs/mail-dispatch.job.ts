import type { Logger } from 'pino';
import type { DeliveryReport } from '../../application/use-cases/deliver-mail/deliver-mail.handler.js';
import type { PeriodicJob } from './periodic-job.js';

/** What the job reports beside its log lines (the metrics). */
export interface MailDispatchSignals {
  /** A mail given up. */
  readonly deadLettered?: () => void;
  /** The relay was seen up (a mail went through) or failing (it failed before any mail, and none went through). */
  readonly relayState?: (up: boolean) => void;
}

/**
 * Runs the deliver-mail use case until a run finds nothing due. A failed delivery is logged with its event id, never
 * with the mail's content or link; it is retried with backoff by the use case, or given up (a dead letter: logged at
 * warn and counted by `deadLettered`). A failing relay is one warn line a run (not one per mail) and `relayState`.
 */
export class MailDispatchJob implements PeriodicJob {
  readonly name = 'mail dispatch';

  constructor(
    private readonly deliver: { execute(): Promise<DeliveryReport> },
    readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
    private readonly signals: MailDispatchSignals = {},
  ) {}

  private relayFailing = false;

  /** Delivers until nothing is due; rejects only when the outbox cannot be read (the runner logs it). */
  async runOnce(): Promise<void> {
    for (;;) {
      const report = await this.deliver.execute();
      this.observeRelay(report.relay);
      for (const { eventId, attempts, error, deadLetter } of report.failed) {
        if (!deadLetter) this.logger.warn({ eventId, attempts, err: error }, 'mail delivery failed; will retry');
        else {
          this.logger.warn({ eventId, attempts, err: error }, 'mail dead-lettered; it will not be retried');
          this.signals.deadLettered?.();
        }
      }
      if (report.sent === 0) return;
    }
  }

  private observeRelay(relay: DeliveryReport['relay']): void {
    if (relay.state === 'unknown') return;
    this.signals.relayState?.(relay.state === 'up');
    if (relay.state === 'failing') {
      this.logger.warn({ postponed: relay.postponed, err: relay.lastError }, 'mail relay failing (connection, greeting, TLS or authentication): mails wait for it, none is given up for it');
    } else if (this.relayFailing) this.logger.info('mail relay answering again');
    this.relayFailing = relay.state === 'failing';
  }
}
