/** Prometheus metrics: requests by route and status, latency histogram, quota rejections. */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'waymark_http_requests_total',
    help: 'HTTP requests answered, by route pattern and status code',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'waymark_http_request_duration_seconds',
    help: 'Time from receiving a request to handing its reply to the socket',
    labelNames: ['route'] as const,
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  private readonly quotaRejections = new Counter({
    name: 'waymark_quota_rejections_total',
    help: 'Requests refused with 429 because a monthly quota was spent, by service',
    labelNames: ['service'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'waymark_' });
  }

  request(route: string, status: number, seconds: number): void {
    this.requests.inc({ route, status });
    this.latency.observe({ route }, seconds);
  }

  quotaRejected(service: string): void {
    this.quotaRejections.inc({ service });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
