// The side-by-side field table: one row per leaf of the desired spec plus one per reported difference. The server's
// diff (status.diff, /diff) lists only fields that differ, so a field without a diff row is observed as desired.

const MARKS = {
  VALUE_MISMATCH: ['changed', 'changed'],
  TYPE_MISMATCH: ['changed', 'changed (type)'],
  MISSING: ['removed', 'missing in observed (removed)'],
  UNEXPECTED: ['added', 'unexpected in observed (added)'],
};
const ABSENT = '(absent)';

/** Rows {path, desired, observed, mark, label}; mark is changed, added, removed, ignored, contains or same. */
export function fieldRows(spec, diffs, ignoredPatterns, observed) {
  const rows = new Map();
  for (const [path, value] of leaves(spec, '')) {
    rows.set(path, { path, desired: show(value), observed: observed ? show(value) : '(not observed)', mark: 'same', label: '' });
  }
  for (const d of diffs || []) {
    const [mark, label] = MARKS[d.kind] || MARKS.VALUE_MISMATCH;
    const desired = d.kind === 'UNEXPECTED' ? ABSENT : show(d.desired);
    const seen = d.kind === 'MISSING' ? ABSENT : show(d.observed);
    rows.set(d.path, { path: d.path, desired, observed: seen, mark, label });
    for (const row of rows.values()) {
      if (row.mark === 'same' && d.path.startsWith(row.path + '[')) {
        Object.assign(row, { mark: 'contains', label: 'an item differs (below)', observed: 'see below' });
      }
    }
  }
  for (const row of rows.values()) {
    if (ignoredPatterns.some((p) => ignores(p, row.path))) {
      Object.assign(row, { mark: 'ignored', label: 'ignored by the kind policy', observed: row.mark === 'same' ? '(not compared)' : row.observed });
    }
  }
  return [...rows.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Dotted paths of the spec's leaves: maps are walked, lists and scalars are leaves (lists compare whole unless keyed). */
function* leaves(value, prefix) {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) yield* leaves(v, prefix ? prefix + '.' + escapeKey(k) : escapeKey(k));
  } else if (prefix) {
    yield [prefix, value];
  }
}

const escapeKey = (k) => k.replace(/([.[\]\\*])/g, '\\$1');
const show = (v) => (v === undefined ? ABSENT : JSON.stringify(v));

/** A policy's ignore pattern covers a path when it matches the path or one of its parents; * is any one segment. */
export function ignores(pattern, path) {
  const p = split(pattern);
  const s = split(path);
  return p.length <= s.length && p.every((seg, i) => seg === '*' || seg === s[i]);
}

/** Splits at unescaped dots and before list items: a.b[name=x].c is a, b, [name=x], c. */
function split(path) {
  return path.match(/(\\.|[^.[\\])+|\[[^\]]*\]/g) || [];
}
