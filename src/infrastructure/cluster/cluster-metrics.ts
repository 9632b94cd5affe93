import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { isMessage, isOurWorker } from './worker.js';

const REQUEST = 'account-service:metrics-request';
const ANSWER = 'account-service:metrics-answer';
const ANSWER_TIMEOUT_MS = 5_000;

interface MetricsRequest {
  readonly type: typeof REQUEST;
  readonly id: number;
}

interface MetricsAnswer {
  readonly type: typeof ANSWER;
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

/**
 * In a worker of several (WORKERS above 1): what GET /metrics renders, every worker's metrics added up, whichever
 * worker the scrape reached. The worker asks the primary, which gathers each worker's registry through prom-client's
 * AggregatorRegistry (counters and histograms summed, gauges by their `aggregator`) and answers. Undefined outside a
 * worker forked by our primary (isOurWorker): the process's own registry is the whole story there.
 */
export function clusterMetricsOf(registry: Registry): (() => Promise<string>) | undefined {
  const send = process.send?.bind(process);
  if (!isOurWorker() || send === undefined) return undefined;
  AggregatorRegistry.setRegistries([registry]);
  // Constructed for its side effect: this worker now answers the primary's requests for its own metrics.
  new AggregatorRegistry();
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  let next = 0;
  process.on('message', (message: unknown) => {
    if (!isMessage<MetricsAnswer>(message, ANSWER)) return;
    const pending = waiting.get(message.id);
    if (pending === undefined) return;
    waiting.delete(message.id);
    clearTimeout(pending.timer);
    if (message.text === undefined) pending.reject(new Error(`the workers' metrics could not be gathered: ${message.error ?? 'no answer'}`));
    else pending.resolve(message.text);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error("the primary did not answer with the workers' metrics"));
      }, ANSWER_TIMEOUT_MS);
      waiting.set(id, { resolve, reject, timer });
      send({ type: REQUEST, id } satisfies MetricsRequest);
    });
}

/** In the primary: answers each worker's request with every worker's metrics, aggregated. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<MetricsRequest>(message, REQUEST)) return;
    const answer = (fields: Pick<MetricsAnswer, 'text' | 'error'>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...fields } satisfies MetricsAnswer);
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
