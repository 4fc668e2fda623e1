// Overview: counts by sync status (and health, once resources carry it), per kind; what needs attention, newest
// first; and the convergence time from the pipeline's own histogram in /metrics.
import { h, badge, table, when, fmt, detailLink, message, fill } from './dom.js';
import { collection } from './collection.js';

export const SYNC = ['Synced', 'Progressing', 'OutOfSync', 'Stalled', 'Deleting', 'Orphaned'];
const ATTENTION = new Set(['OutOfSync', 'Stalled', 'Degraded']);
const METRIC = 'statesync_convergence_seconds';

export function overview(main) {
  const body = h('div', {}, h('p', {}, 'Loading resources…'));
  const convergence = h('p', { class: 'figure', id: 'convergence' }, '…');
  main.append(h('h1', {}, 'Overview'), h('section', { 'aria-labelledby': 'conv-h' },
    h('h2', { id: 'conv-h' }, 'Time to converge'), convergence), body);
  const c = collection({});
  const stop = c.subscribe(() => fill(body, ...summary(c)));
  const poll = () => loadConvergence(convergence);
  poll();
  const timer = setInterval(poll, 10000);
  return () => { stop(); clearInterval(timer); };
}

function summary(c) {
  const all = [...c.items.values()];
  const bySync = count(all, (r) => r.sync);
  const byKind = new Map();
  for (const r of all) {
    if (!byKind.has(r.kind)) byKind.set(r.kind, []);
    byKind.get(r.kind).push(r);
  }
  const counts = (m, names) => names.map((n) => h('tr', {}, h('th', { scope: 'row' }, badge(n)), h('td', { class: 'num' }, fmt(m.get(n) || 0))));
  const cards = [h('section', {}, h('h2', {}, `Sync status (${fmt(all.length)} resources)`),
    table(null, ['Sync', 'Resources'], counts(bySync, SYNC), { id: 'by-sync' }))];
  if (c.hasHealth) {
    const byHealth = count(all, (r) => r.health);
    cards.push(h('section', {}, h('h2', {}, 'Health'), table(null, ['Health', 'Resources'], counts(byHealth, [...byHealth.keys()].filter(Boolean).sort()), { id: 'by-health' })));
  }
  const kindRows = [...byKind.keys()].sort().map((k) => {
    const m = count(byKind.get(k), (r) => r.sync);
    return h('tr', {}, h('th', { scope: 'row' }, h('a', { href: '#/resources?kind=' + encodeURIComponent(k) }, k)),
      h('td', { class: 'num' }, fmt(byKind.get(k).length)), SYNC.map((s) => h('td', { class: 'num' }, fmt(m.get(s) || 0))));
  });
  const attention = all.filter((r) => ATTENTION.has(r.sync) || ATTENTION.has(r.health))
    .sort((a, b) => (b.changedAt || '').localeCompare(a.changedAt || '')).slice(0, 50);
  return [h('div', { class: 'cards' }, cards),
    h('h2', {}, 'By kind'), table(null, ['Kind', 'Total', ...SYNC], kindRows, { id: 'by-kind' }),
    h('h2', {}, `Needs attention (${fmt(attention.length)}${attention.length === 50 ? '+' : ''})`),
    attention.length ? table(null, ['Kind', 'Namespace', 'Name', 'Sync', c.hasHealth ? 'Health' : null, 'Since'].filter(Boolean),
      attention.map((r) => h('tr', {}, h('td', {}, r.kind), h('td', {}, r.namespace), h('td', {}, detailLink(r)), h('td', {}, badge(r.sync)),
        c.hasHealth ? h('td', {}, badge(r.health)) : null, h('td', {}, when(r.changedAt)))), { id: 'attention' })
      : h('p', {}, 'Nothing is out of sync or stalled.')];
}

function count(items, by) {
  const m = new Map();
  for (const r of items) m.set(by(r), (m.get(by(r)) || 0) + 1);
  return m;
}

async function loadConvergence(el) {
  try {
    const text = await (await fetch('/metrics')).text();
    const h2 = histogram(text, METRIC);
    el.textContent = h2.count ? `median ${seconds(quantile(h2, 0.5))}, 95th percentile ${seconds(quantile(h2, 0.95))}, `
      + `mean ${seconds(h2.sum / h2.count)} over ${fmt(h2.count)} convergences` : 'no convergence measured yet';
  } catch (e) {
    fill(el, message('error', 'metrics unavailable: ' + e.message));
  }
}

/** Sums a Prometheus histogram over all its label sets: cumulative bucket counts by upper bound, sum and count. */
export function histogram(text, name) {
  const buckets = new Map();
  let sum = 0;
  let count = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith(name + '_bucket')) {
      const le = /le="([^"]+)"/.exec(line)[1];
      const bound = le === '+Inf' ? Infinity : Number(le);
      buckets.set(bound, (buckets.get(bound) || 0) + value);
    } else if (line.startsWith(name + '_sum')) sum += value;
    else if (line.startsWith(name + '_count')) count += value;
  }
  return { buckets: [...buckets.entries()].sort((a, b) => a[0] - b[0]), sum, count };
}

/** The quantile by linear interpolation inside the bucket that holds it, as Prometheus' histogram_quantile. */
export function quantile({ buckets, count }, q) {
  const rank = q * count;
  let lower = 0;
  let below = 0;
  for (const [bound, cumulative] of buckets) {
    if (cumulative >= rank) {
      if (bound === Infinity) return lower;
      return lower + (bound - lower) * ((rank - below) / Math.max(1, cumulative - below));
    }
    lower = bound;
    below = cumulative;
  }
  return lower;
}

const seconds = (s) => s < 1 ? Math.round(s * 1000) + ' ms' : s.toFixed(s < 10 ? 2 : 1) + ' s';
