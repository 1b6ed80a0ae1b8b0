/**
 * `GET /api/v1/usage/report`: the usage analytics (control-plane/analytics.ts) of an organization
 * for a range of days this year, grouped by any of day, key, service, endpoint and status class,
 * as JSON or CSV. A key sees its own counts, a member those of the keys it may manage (admins and
 * owners every key), as in `/usage/current`.
 */
import { STATUS_CLASSES, type AnalyticsRow } from '../control-plane/analytics.js';
import type { ControlStore } from '../control-plane/store.js';
import { ApiError } from '../http/errors.js';
import { json, type Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import { keysVisibleTo, type UsageViewer } from './report.js';

export const GROUPS = ['day', 'key', 'service', 'endpoint', 'status'] as const;
type Group = (typeof GROUPS)[number];
const DEFAULT_GROUPS: Group[] = ['day', 'service', 'endpoint', 'status'];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day of `year` as given, or the 400. */
function dayOf(req: Request, name: string, fallback: string, year: string): string {
  const day = req.query.get(name) ?? fallback;
  if (!DAY.test(day) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) {
    throw new ApiError(400, `${name} must be a day, YYYY-MM-DD, not ${JSON.stringify(day)}`);
  }
  if (!day.startsWith(`${year}-`)) throw new ApiError(400, `${name} must be a day of this year (${year}), not ${day}`);
  return day;
}

function groupsOf(req: Request): Group[] {
  const asked = req.query.get('group_by');
  if (asked === null) return DEFAULT_GROUPS;
  const groups = asked === '' ? [] : asked.split(',').map((g) => g.trim());
  for (const group of groups) {
    if (!GROUPS.includes(group as Group))
      throw new ApiError(400, `group_by takes a comma-separated list of ${GROUPS.join(', ')}, not ${JSON.stringify(group)}`);
  }
  return GROUPS.filter((g) => groups.includes(g));
}

const columnOf: Record<Group, (row: AnalyticsRow) => string> = {
  day: (row) => row.day,
  key: (row) => row.keyId,
  service: (row) => row.service,
  endpoint: (row) => row.endpoint,
  status: (row) => row.status,
};

/** The counts added up by the chosen groups, in their order. */
function grouped(rows: readonly AnalyticsRow[], groups: readonly Group[]): Record<string, string | number>[] {
  const totals = new Map<string, Record<string, string | number>>();
  for (const row of rows) {
    const values = groups.map((g) => columnOf[g](row));
    const id = JSON.stringify(values);
    const total = totals.get(id) ?? Object.fromEntries([...groups.map((g, i) => [g, values[i]!]), ['count', 0]]);
    (total.count as number) += row.count;
    totals.set(id, total);
  }
  const order = (a: Record<string, string | number>, b: Record<string, string | number>) => {
    for (const g of groups) {
      const by =
        g === 'status'
          ? STATUS_CLASSES.indexOf(a[g] as never) - STATUS_CLASSES.indexOf(b[g] as never)
          : String(a[g]).localeCompare(String(b[g]));
      if (by !== 0) return by;
    }
    return 0;
  };
  return [...totals.values()].sort(order);
}

/** A CSV field (RFC 4180): quoted, its quotes doubled, when it holds a comma, a quote or a line break. */
function csvField(value: string | number): string {
  const text = String(value);
  return /[,\r\n]/.test(text) || text.includes('"') ? `"${text.replaceAll('"', '""')}"` : text;
}

export async function analyticsReport(
  store: ControlStore,
  orgId: string,
  viewer: UsageViewer,
  req: Request,
  today: string,
): Promise<Reply> {
  const year = today.slice(0, 4);
  const from = dayOf(req, 'from', `${today.slice(0, 7)}-01`, year);
  const to = dayOf(req, 'to', today, year);
  if (from > to) throw new ApiError(400, `from (${from}) must not be after to (${to})`);
  const groups = groupsOf(req);
  const format = req.query.get('format') ?? 'json';
  if (format !== 'json' && format !== 'csv') throw new ApiError(400, `format must be json or csv, not ${JSON.stringify(format)}`);
  const visible = new Set((await store.listKeys(orgId)).filter(keysVisibleTo(viewer)).map((key) => key.id));
  const rows = grouped(
    (await store.analyticsRows(orgId, from, to)).filter((row) => visible.has(row.keyId)),
    groups,
  );
  const headers = { 'Cache-Control': 'no-store' };
  if (format === 'csv') {
    const lines = [[...groups, 'count'].join(','), ...rows.map((row) => [...groups, 'count'].map((c) => csvField(row[c]!)).join(','))];
    return { status: 200, headers: { ...headers, 'Content-Type': 'text/csv; charset=utf-8' }, body: `${lines.join('\r\n')}\r\n` };
  }
  const total = rows.reduce((sum, row) => sum + (row.count as number), 0);
  return json(200, { from, to, groupBy: groups, rows, total }, headers);
}
