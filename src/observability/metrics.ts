/**
 * Prometheus metrics: requests by route and status, a latency histogram per route, and quota and
 * short-window (per-minute) rejections per service, counted in plain maps and arrays (a request adds a few increments) and
 * rendered as text on scrape, after prom-client's default process metrics.
 */
import { Registry, collectDefaultMetrics } from 'prom-client';

const BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface RouteStats {
  byStatus: Map<number, number>;
  /** Non-cumulative counts per bucket; the last slot is +Inf. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

const label = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** A counter by service in Prometheus' text format. */
function serviceCounter(name: string, help: string, counts: ReadonlyMap<string, number>): string[] {
  const lines = [`# HELP ${name} ${help}, by service`, `# TYPE ${name} counter`];
  for (const [service, n] of counts) lines.push(`${name}{service="${label(service)}"} ${n}`);
  return lines;
}

export class Metrics {
  readonly contentType = 'text/plain; version=0.0.4; charset=utf-8';
  private readonly defaults = new Registry();
  private readonly routes = new Map<string, RouteStats>();
  private readonly quotaRejections = new Map<string, number>();
  private readonly windowRejections = new Map<string, number>();

  constructor() {
    collectDefaultMetrics({ register: this.defaults, prefix: 'waymark_' });
  }

  request(route: string, status: number, seconds: number): void {
    let stats = this.routes.get(route);
    if (!stats) {
      stats = { byStatus: new Map(), buckets: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 };
      this.routes.set(route, stats);
    }
    stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]!) bucket++;
    stats.buckets[bucket]!++;
    stats.sum += seconds;
    stats.count++;
  }

  quotaRejected(service: string): void {
    this.quotaRejections.set(service, (this.quotaRejections.get(service) ?? 0) + 1);
  }

  windowRejected(service: string): void {
    this.windowRejections.set(service, (this.windowRejections.get(service) ?? 0) + 1);
  }

  async text(): Promise<string> {
    const lines = [
      '# HELP waymark_http_requests_total HTTP requests answered, by route pattern and status code',
      '# TYPE waymark_http_requests_total counter',
    ];
    for (const [route, stats] of this.routes) {
      for (const [status, n] of stats.byStatus) lines.push(`waymark_http_requests_total{route="${label(route)}",status="${status}"} ${n}`);
    }
    lines.push(
      '# HELP waymark_http_request_duration_seconds Time from receiving a request to handing its reply to the socket',
      '# TYPE waymark_http_request_duration_seconds histogram',
    );
    for (const [route, stats] of this.routes) {
      const r = label(route);
      let cumulative = 0;
      BUCKETS.forEach((le, i) => {
        cumulative += stats.buckets[i]!;
        lines.push(`waymark_http_request_duration_seconds_bucket{le="${le}",route="${r}"} ${cumulative}`);
      });
      lines.push(`waymark_http_request_duration_seconds_bucket{le="+Inf",route="${r}"} ${stats.count}`);
      lines.push(`waymark_http_request_duration_seconds_sum{route="${r}"} ${stats.sum}`);
      lines.push(`waymark_http_request_duration_seconds_count{route="${r}"} ${stats.count}`);
    }
    lines.push(
      ...serviceCounter(
        'waymark_quota_rejections_total',
        'Requests refused with 429 because a monthly quota was spent',
        this.quotaRejections,
      ),
      ...serviceCounter(
        'waymark_rate_limit_rejections_total',
        "Requests refused with 429 by a per-minute limit (an organization's or a key's)",
        this.windowRejections,
      ),
    );
    return `${lines.join('\n')}\n${await this.defaults.metrics()}`;
  }
}
