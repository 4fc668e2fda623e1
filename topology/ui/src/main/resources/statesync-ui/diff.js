// The side-by-side field table: one row per leaf of the desired spec and of the observed state, plus one per reported
// difference. The marks come from the server's diff (status.diff, /diff), which applies the kind policy's rules;
// a server that does not send the whole observed state gets the desired value shown for fields without a diff.

const MARKS = {
  VALUE_MISMATCH: ['changed', 'changed'],
  TYPE_MISMATCH: ['changed', 'changed (type)'],
  MISSING: ['removed', 'missing in observed (removed)'],
  UNEXPECTED: ['added', 'unexpected in observed (added)'],
};
const ABSENT = '(absent)';

/**
 * Rows {path, desired, observed, mark, label}; mark is changed, added, removed, ignored, contains, extra or same.
 * observed is null before any report, else {state} (state undefined when the server does not send it).
 */
export function fieldRows(spec, diffs, ignoredPatterns, observed) {
  const seen = observed && observed.state !== undefined ? new Map(leaves(observed.state, '')) : null;
  const rows = new Map();
  for (const [path, value] of leaves(spec, '')) {
    const o = !observed ? '(not observed)' : !seen ? show(value) : seen.has(path) ? show(seen.get(path)) : ABSENT;
    rows.set(path, { path, desired: show(value), observed: o, mark: 'same', label: '' });
  }
  for (const [path, value] of seen || []) {
    if (!rows.has(path)) rows.set(path, { path, desired: ABSENT, observed: show(value), mark: 'extra', label: 'only in observed, not managed' });
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
      Object.assign(row, { mark: 'ignored', label: 'ignored by the kind policy', observed: row.mark === 'same' && !seen ? '(not compared)' : row.observed });
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
