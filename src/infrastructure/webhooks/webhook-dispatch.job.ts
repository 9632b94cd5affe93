import type { Logger } from 'pino';
import type { WebhookFailure, WebhookReport } from '../../application/webhooks/use-cases/deliver-webhooks/deliver-webhooks.handler.js';
import type { PeriodicJob } from '../jobs/periodic-job.js';

/** What the job reports beside its log lines: each delivery's outcome (the metrics). */
export type WebhookSignals = (outcome: 'delivered' | 'retried' | 'dead_lettered', count: number) => void;

/** Where a receiver is, for a log line: its origin (scheme, host, port), never its path, query or credentials. */
const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return 'an unparsable URL';
  }
};

/** A failure as its log line tells it: the event, the attempt, why (and the status), and when it is tried next. */
const failureFields = (failure: WebhookFailure | undefined) =>
  failure === undefined
    ? {}
    : {
        eventId: failure.eventId,
        attempt: failure.attempts,
        error: failure.error,
        ...(failure.status === undefined ? {} : { status: failure.status }),
        ...(failure.nextAttemptAt === null ? {} : { nextAttemptAt: failure.nextAttemptAt.toISOString() }),
      };

/**
 * Sends one receiver what happened since its cursor (the deliver-webhooks use case), run after run until nothing
 * was delivered. One job per receiver: a slow or dead receiver holds up its own job only, never mail nor another
 * receiver. A failure is logged with the receiver's id (the first 24 hex digits of the SHA-256 of its URL) and
 * origin, the event id, the attempt, why (`error`, and `status` when it answered) and `nextAttemptAt`; never a
 * payload, nor the URL's path or query, where a receiver may keep a token.
 */
export class WebhookDispatchJob implements PeriodicJob {
  readonly name: string;
  private readonly where: { readonly receiver: string; readonly origin: string };

  constructor(
    private readonly deliver: { execute(receiver: { readonly id: string; readonly url: string }): Promise<WebhookReport> },
    private readonly receiver: { readonly id: string; readonly url: string },
    readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly signals: WebhookSignals = () => undefined,
  ) {
    this.name = `webhooks to ${receiver.id}`;
    this.where = { receiver: receiver.id, origin: originOf(receiver.url) };
  }

  async runOnce(): Promise<void> {
    for (;;) {
      const report = await this.deliver.execute(this.receiver);
      if (report.delivered > 0) this.signals('delivered', report.delivered);
      if (report.retried > 0) {
        this.signals('retried', report.retried);
        this.logger.warn({ ...this.where, ...failureFields(report.failure) }, 'webhook delivery failed; will retry at nextAttemptAt');
      }
      if (report.deadLettered > 0) {
        this.signals('dead_lettered', report.deadLettered);
        this.logger.warn({ ...this.where, ...failureFields(report.failure) }, 'webhook dead-lettered after WEBHOOK_MAX_ATTEMPTS failures; the receiver gets the next event');
      }
      if (report.delivered === 0 || report.retried > 0) return;
    }
  }
}
