import type { Logger } from 'pino';
import type { WebhookReport } from '../../application/webhooks/use-cases/deliver-webhooks/deliver-webhooks.handler.js';
import type { PeriodicJob } from '../jobs/periodic-job.js';

/** What the job reports beside its log lines: each delivery's outcome (the metrics). */
export type WebhookSignals = (outcome: 'delivered' | 'retried' | 'dead_lettered', count: number) => void;

/**
 * Sends one receiver what happened since its cursor (the deliver-webhooks use case), run after run until nothing
 * was delivered. One job per receiver: a slow or dead receiver holds up its own job only, never mail nor another
 * receiver. Failures are logged with the receiver's id and never with a payload or the URL's query.
 */
export class WebhookDispatchJob implements PeriodicJob {
  readonly name: string;

  constructor(
    private readonly deliver: { execute(receiver: { readonly id: string; readonly url: string }): Promise<WebhookReport> },
    private readonly receiver: { readonly id: string; readonly url: string },
    readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly signals: WebhookSignals = () => undefined,
  ) {
    this.name = `webhooks to ${receiver.id}`;
  }

  async runOnce(): Promise<void> {
    for (;;) {
      const report = await this.deliver.execute(this.receiver);
      if (report.delivered > 0) this.signals('delivered', report.delivered);
      if (report.retried > 0) {
        this.signals('retried', report.retried);
        this.logger.warn({ receiver: this.receiver.id }, 'webhook delivery failed; will retry');
      }
      if (report.deadLettered > 0) {
        this.signals('dead_lettered', report.deadLettered);
        this.logger.warn({ receiver: this.receiver.id }, 'webhook dead-lettered after WEBHOOK_MAX_ATTEMPTS failures; the receiver gets the next event');
      }
      if (report.delivered === 0 || report.retried > 0) return;
    }
  }
}
