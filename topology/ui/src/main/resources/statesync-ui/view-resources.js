// Resources: the server filters (kind, namespace, label selector, sync) on the list and the watch, the page sorts
// and pages what it holds. Every filter, the sort and the page are in the URL.
import { h, badge, when, fmt, detailLink, navigate, fill } from './dom.js';
import { collection } from './collection.js';
import { SYNC } from './view-overview.js';

const PAGE_SIZE = 100;
const COLUMNS = [
  { id: 'kind', label: 'Kind', text: (r) => r.kind },
  { id: 'namespace', label: 'Namespace', text: (r) => r.namespace },
  { id: 'name', label: 'Name', cell: detailLink, text: (r) => r.name },
  { id: 'sync', label: 'Sync', cell: (r) => badge(r.sync), text: (r) => r.sync },
  { id: 'health', label: 'Health', cell: (r) => badge(r.health), text: (r) => r.health || '', optional: true },
  { id: 'generation', label: 'Generation / observed', num: true, text: (r) => r.generation,
    cell: (r) => `${r.generation} / ${r.observedGeneration ?? '—'}` },
  { id: 'corrected', label: 'Last correction', text: (r) => r.correctedAt || '',
    cell: (r) => r.correctedAt ? [when(r.correctedAt), ' ', r.correction] : '—' },
  { id: 'age', label: 'Age', text: (r) => r.created || '', cell: (r) => when(r.created) },
];

export function resources(main, query) {
  const q = Object.fromEntries(['kind', 'namespace', 'labelSelector', 'syncStatus', 'health', 'sort', 'page'].map((k) => [k, query.get(k) || '']));
  const c = collection({ kind: q.kind, namespace: q.namespace, labelSelector: q.labelSelector, syncStatus: q.syncStatus });
  const status = h('p', { role: 'status', id: 'count' }, 'Loading…');
  const holder = h('div', {});
  main.append(h('h1', {}, 'Resources'), filters(q, c), status, holder);
  return c.subscribe(() => renderTable(holder, status, c, q));
}

function filters(q, c) {
  const field = (id, label, control) => h('label', { for: 'f-' + id }, label, control);
  const input = (id, placeholder) => h('input', { id: 'f-' + id, name: id, value: q[id], placeholder, size: id === 'labelSelector' ? 28 : 14 });
  const select = (id, values) => h('select', { id: 'f-' + id, name: id },
    h('option', { value: '' }, 'any'), values.map((v) => h('option', { value: v, selected: v === q[id] }, v)));
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter resources', onsubmit: (ev) => {
    ev.preventDefault();
    const data = Object.fromEntries(new FormData(form).entries());
    navigate('/resources', { ...data, sort: q.sort });
  } },
  field('kind', 'Kind', input('kind', 'any kind')),
  field('namespace', 'Namespace', input('namespace', 'any namespace')),
  field('labelSelector', 'Label selector', input('labelSelector', 'tier=web,env!=dev')),
  field('syncStatus', 'Sync', select('syncStatus', SYNC)),
  c.hasHealth || q.health ? field('health', 'Health', input('health', 'any health')) : null,
  h('button', { type: 'submit' }, 'Apply'),
  h('button', { type: 'button', onclick: () => navigate('/resources', {}) }, 'Clear'));
  return form;
}

function renderTable(holder, status, c, q) {
  const started = performance.now();
  if (c.error && !c.loaded) {
    status.textContent = 'Error: ' + c.error.message;
    return;
  }
  const columns = COLUMNS.filter((col) => !col.optional || c.hasHealth);
  let rows = [...c.items.values()];
  if (q.health) rows = rows.filter((r) => r.health === q.health);
  const [sortId, dir] = (q.sort || 'name:asc').split(':');
  const col = COLUMNS.find((x) => x.id === sortId) || COLUMNS[2];
  const sign = dir === 'desc' ? -1 : 1;
  rows.sort((a, b) => sign * compare(col.text(a), col.text(b)) || compare(a.key, b.key));
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const page = Math.min(pages, Math.max(1, Number(q.page) || 1));
  const shown = rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  status.textContent = rows.length ? `Rows ${fmt((page - 1) * PAGE_SIZE + 1)}–${fmt((page - 1) * PAGE_SIZE + shown.length)} of ${fmt(rows.length)}`
    : 'No resources match.';
  const header = columns.map((x) => {
    const active = x.id === col.id;
    const next = active && dir !== 'desc' ? 'desc' : 'asc';
    return h('th', { scope: 'col', class: x.num ? 'num' : null, 'aria-sort': active ? (dir === 'desc' ? 'descending' : 'ascending') : null },
      h('button', { type: 'button', 'data-focus': 'sort-' + x.id, onclick: () => navigate('/resources', { ...q, sort: x.id + ':' + next, page: '' }) },
        x.label, active ? (dir === 'desc' ? ' ▼' : ' ▲') : ''));
  });
  // A live repaint replaces the rows and buttons; the control that had the keyboard focus gets it back.
  const focused = holder.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
  const body = shown.map((r) => h('tr', { 'data-key': r.key, 'data-rv': r.rv },
    columns.map((x) => h('td', { class: x.num ? 'num' : null }, x.cell ? x.cell(r) : x.text(r)))));
  fill(holder, h('table', { id: 'resources', 'aria-rowcount': rows.length + 1 },
    h('thead', {}, h('tr', {}, header)), h('tbody', {}, body)), pager(q, page, pages));
  if (focused) [...holder.querySelectorAll('[data-focus]')].find((e) => e.dataset.focus === focused)?.focus();
  // User timing entries, so that a benchmark can read when the first rows were on screen and what a repaint costs.
  if (shown.length && !performance.getEntriesByName('statesync-first-rows').length) performance.mark('statesync-first-rows');
  performance.clearMeasures('statesync-render');
  performance.measure('statesync-render', { start: started });
}

function pager(q, page, pages) {
  if (pages === 1) return '';
  const go = (p) => () => navigate('/resources', { ...q, page: p === 1 ? '' : p });
  return h('nav', { class: 'pager', 'aria-label': 'Pages' },
    h('button', { type: 'button', 'data-focus': 'previous', disabled: page === 1, onclick: go(page - 1) }, 'Previous'),
    `Page ${page} of ${fmt(pages)}`,
    h('button', { type: 'button', 'data-focus': 'next', disabled: page === pages, onclick: go(page + 1) }, 'Next'));
}

const compare = (a, b) => (a === b ? 0 : a === undefined ? -1 : b === undefined ? 1 : a < b ? -1 : 1);
