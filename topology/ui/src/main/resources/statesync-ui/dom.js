// Small DOM helpers. Data always goes in as text nodes, never as HTML, so no resource content can inject markup.

/** h('a', {href: '#/'}, 'text', child) builds an element; attributes starting with "on" become listeners. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

/** Replaces an element's content; unlike replaceChildren, skips null and false, as h does. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** A status shown as text and colour, never colour alone. */
export const badge = (value) => value ? h('span', { class: 'badge s-' + value }, value) : h('span', { class: 'muted' }, '—');

export function message(kind, ...text) {
  return h('div', { class: 'msg ' + kind, role: kind === 'error' ? 'alert' : 'status' }, ...text);
}

export function table(caption, headers, rows, attrs = {}) {
  return h('table', attrs, caption ? h('caption', { class: 'muted' }, caption) : null,
    h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, rows));
}

/** "3m ago" style age, with the exact time in a title and a datetime attribute. */
export function when(iso) {
  if (!iso) return h('span', { class: 'muted' }, '—');
  return h('time', { datetime: iso, title: iso }, age(Date.parse(iso)));
}

export function age(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return s + 's';
  if (s < 3600) return Math.floor(s / 60) + 'm';
  if (s < 86400) return Math.floor(s / 3600) + 'h';
  return Math.floor(s / 86400) + 'd';
}

export const fmt = (n) => Number(n).toLocaleString('en');

export function describeError(e) {
  return e && e.body && e.body.reason ? `${e.status} ${e.body.reason}: ${e.message}` : String(e && e.message || e);
}

/**
 * Marks an editor invalid until its next edit and, when the server's message names a line (a YAML syntax error),
 * selects that line, so the error is found where it is.
 */
export function markInvalid(textarea, text) {
  textarea.setAttribute('aria-invalid', 'true');
  textarea.addEventListener('input', () => textarea.removeAttribute('aria-invalid'), { once: true });
  const m = /line (\d+)/.exec(text || '');
  if (!m) return;
  const lines = textarea.value.split('\n');
  const n = Math.max(1, Math.min(Number(m[1]), lines.length)) - 1;
  const start = lines.slice(0, n).reduce((sum, l) => sum + l.length + 1, 0);
  textarea.focus();
  textarea.setSelectionRange(start, start + lines[n].length);
}

/** Changes the URL hash to a view and its query; the hashchange handler renders it. */
export function navigate(path, query) {
  const qs = new URLSearchParams(Object.entries(query || {}).filter(([, v]) => v !== '' && v != null)).toString();
  location.hash = path + (qs ? '?' + qs : '');
}

// A cluster-scoped object's empty namespace is '-' in the page's links, as in the REST paths.
export const detailLink = (r) => h('a', { href: '#/resources/' + [r.kind, r.namespace || '-', r.name].map(encodeURIComponent).join('/'), 'data-focus': r.key }, r.name);
