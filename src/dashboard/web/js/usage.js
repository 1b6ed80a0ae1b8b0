// The Usage area: this month's requests per service against the quotas, per day and per key.
import { api } from './api.js';
import { $, el, fillTable, svg } from './dom.js';
import { guarded } from './feedback.js';
import { formatLimit, formatNumber, monthName, SERVICE_LABELS, SERVICES, tierLabel } from './format.js';
import { keyStatusBadge } from './keys.js';

const DAY_MS = 86_400_000;

export async function loadUsage() {
  const usage = await api('GET', '/usage');
  $('#usage-period').textContent =
    `${monthName(usage.period.start)} (UTC), on the ${tierLabel(usage.organization.tier)} plan. Quotas reset on ${usage.period.end.slice(0, 10)}.`;
  $('#usage-services').replaceChildren(...SERVICES.map((s) => serviceCard(s, usage.services[s])));
  drawDailyChart(usage.period, usage.daily);
  fillTable($('#key-usage-table'), usage.keys.map(keyUsageRow));
  await loadEndpoints();
}

const STATUS_CLASSES = ['2xx', '4xx', '429', '5xx'];

/** This month's requests per endpoint by status class (the usage analytics), a bar each with its refusals visible. */
async function loadEndpoints() {
  const res = await fetch('/api/v1/usage/report?group_by=endpoint,status', { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`the usage report failed: ${res.status}`);
  const { rows } = await res.json();
  const byEndpoint = new Map();
  for (const { endpoint, status, count } of rows) {
    if (!byEndpoint.has(endpoint)) byEndpoint.set(endpoint, { '2xx': 0, '4xx': 0, 429: 0, '5xx': 0 });
    byEndpoint.get(endpoint)[status] = count;
  }
  fillTable(
    $('#endpoint-usage-table'),
    [...byEndpoint].map(([endpoint, counts]) => endpointRow(endpoint, counts)),
  );
}

function endpointRow(endpoint, counts) {
  const total = STATUS_CLASSES.reduce((sum, s) => sum + counts[s], 0);
  const bar = el('div', { class: 'status-bar', role: 'img', 'aria-label': STATUS_CLASSES.map((s) => `${s}: ${counts[s]}`).join(', ') });
  for (const status of STATUS_CLASSES) {
    const part = el('span', { class: `status-part status-${status}` });
    part.style.width = `${(counts[status] / Math.max(total, 1)) * 100}%`;
    bar.append(part);
  }
  return el(
    'tr',
    { 'data-endpoint': endpoint },
    el('td', {}, el('code', { text: endpoint })),
    el('td', { class: 'status-bar-cell' }, bar),
    ...STATUS_CLASSES.map((s) => el('td', { class: `num status-count-${s}`, text: formatNumber(counts[s]) })),
  );
}

export function setUpUsage() {
  $('#refresh-usage').addEventListener('click', () => guarded(loadUsage));
  // The chart is drawn at its box's width (its text stays legible on a phone): a new width draws it again.
  new ResizeObserver(() => {
    const width = $('#usage-chart').clientWidth;
    if (shownChart && width > 0 && width !== shownChart.width) drawDailyChart(shownChart.period, shownChart.daily);
  }).observe($('#usage-chart'));
}

/** What the chart shows and the width it was drawn at. */
let shownChart = null;

function drawDailyChart(period, daily) {
  const width = $('#usage-chart').clientWidth;
  shownChart = { period, daily, width };
  $('#usage-chart').replaceChildren(dailyChart(period, daily, Math.max(width, CHART.minWidth)));
}

function serviceCard(service, { used, limit }) {
  const percent = limit === null ? 0 : Math.min(100, (used / Math.max(limit, 1)) * 100);
  const fill = el('div', { class: 'bar-fill' });
  fill.style.width = `${percent}%`;
  const bar = el(
    'div',
    {
      class: `bar ${percent >= 100 ? 'full' : percent >= 80 ? 'high' : ''}`,
      role: 'progressbar',
      'aria-label': `${SERVICE_LABELS[service]} quota used`,
      'aria-valuemin': '0',
      'aria-valuemax': limit === null ? false : String(limit),
      'aria-valuenow': String(used),
      'aria-valuetext': `${formatNumber(used)} of ${formatLimit(limit)}`,
    },
    fill,
  );
  return el(
    'article',
    { class: 'card service-card', 'data-service': service },
    el('h2', { text: SERVICE_LABELS[service] }),
    el(
      'p',
      { class: 'usage-figure' },
      el('span', { class: 'used', text: formatNumber(used) }),
      ' / ',
      el('span', { class: 'limit', text: formatLimit(limit) }),
    ),
    bar,
    el('p', {
      class: 'muted',
      text: limit === null ? 'No monthly limit' : `${formatNumber(Math.max(0, limit - used))} remaining this month`,
    }),
  );
}

function keyUsageRow(key) {
  return el(
    'tr',
    { 'data-key-id': key.id },
    el('td', { text: key.name }),
    el('td', {}, el('code', { class: 'hint', text: key.hint })),
    el('td', {}, keyStatusBadge(key)),
    ...SERVICES.map((s) => el('td', { class: 'num', 'data-service': s, text: formatNumber(key.used[s]) })),
  );
}

/** Every UTC day of the period, each with its counts (zero when no row came back). */
function daysOfPeriod(period, daily) {
  const byDay = new Map(daily.map((row) => [row.day, row]));
  const days = [];
  for (let t = Date.parse(period.start); t < Date.parse(period.end); t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.push(byDay.get(day) ?? { day, maps: 0, geocoding: 0, routing: 0 });
  }
  return days;
}

/** A round axis maximum at or above `n` (1, 2 or 4 times a power of ten) whose half is a whole number. */
function niceCeiling(n) {
  if (n <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(n));
  return [1, 2, 4, 10].map((m) => m * power).find((v) => v >= n);
}

/** The chart's frame in CSS pixels; its width is its box's (never below `minWidth`). */
const CHART = { minWidth: 240, height: 240, left: 56, right: 12, top: 12, bottom: 28 };

/** A stacked bar per day (maps, geocoding, routing) as inline SVG, `width` pixels wide. */
function dailyChart(period, daily, width) {
  const days = daysOfPeriod(period, daily);
  const total = (d) => d.maps + d.geocoding + d.routing;
  const max = niceCeiling(Math.max(0, ...days.map(total)));
  const plotWidth = width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const slot = plotWidth / days.length;
  const y = (value) => CHART.top + plotHeight - (value / max) * plotHeight;
  const sum = days.reduce((acc, d) => acc + total(d), 0);

  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${CHART.height}`,
    role: 'img',
    'aria-label': `Daily requests in ${monthName(period.start)}: ${formatNumber(sum)} in total`,
    class: 'daily-chart',
  });
  for (const tick of [0, max / 2, max]) {
    chart.append(
      svg('line', { x1: CHART.left, x2: width - CHART.right, y1: y(tick), y2: y(tick), class: 'grid' }),
      svg('text', { x: CHART.left - 8, y: y(tick) + 4, class: 'axis-label', 'text-anchor': 'end' }, formatNumber(tick)),
    );
  }
  days.forEach((d, i) => chart.append(dayBars(d, CHART.left + i * slot, slot, y)));
  days.forEach((_d, i) => {
    const dayOfMonth = i + 1;
    if (dayOfMonth === 1 || dayOfMonth % 5 === 0) {
      chart.append(
        svg(
          'text',
          { x: CHART.left + (i + 0.5) * slot, y: CHART.height - 8, class: 'axis-label', 'text-anchor': 'middle' },
          String(dayOfMonth),
        ),
      );
    }
  });
  return chart;
}

function dayBars(day, x, slot, y) {
  const group = svg('g', { class: 'day', 'data-day': day.day });
  const summary = SERVICES.map((s) => `${SERVICE_LABELS[s]} ${formatNumber(day[s])}`).join(', ');
  group.append(svg('title', {}, `${day.day}: ${summary}`));
  const barWidth = Math.max(2, slot * 0.7);
  let stacked = 0;
  for (const service of SERVICES) {
    if (day[service] === 0) continue;
    const top = y(stacked + day[service]);
    group.append(
      svg('rect', {
        x: x + (slot - barWidth) / 2,
        y: top,
        width: barWidth,
        height: y(stacked) - top,
        class: `bar-${service}`,
        'data-count': day[service],
      }),
    );
    stacked += day[service];
  }
  return group;
}
