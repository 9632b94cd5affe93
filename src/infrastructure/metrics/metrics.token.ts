import { token } from '../../application/ports/token.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';

export const METRICS = token<PrometheusMetrics>('Metrics');
