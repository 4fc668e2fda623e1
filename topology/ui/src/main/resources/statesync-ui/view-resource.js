// One resource: metadata, conditions, the reported status, desired and observed side by side with the differing
// fields marked, the last correction, its owners and dependents, its events, and, for a writer, a conditional edit (If-Match) of its YAML and
// a delete with the choice of what happens to the dependents.
import { api, optional, resourcePath, canWrite, ApiError } from './api.js';
import { h, badge, table, when, message, describeError, fill, markInvalid } from './dom.js';
import { fieldRows } from './diff.js';
import { toYaml } from './yaml.js';
import { owners, followDependents } from './owners.js';

export async function resource(main, kind, ns, name) {
  const path = resourcePath(kind, ns, name);
  const read = h('div', {});
  const tree = h('section', { id: 'dependents-section', 'aria-labelledby': 'dependents-h' });
  const history = h('section', { 'aria-labelledby': 'events-h' });
  const edit = h('div', {});
  const removal = h('section', { 'aria-labelledby': 'delete-h' });
  main.append(h('h1', {}, `${kind} ${ns}/${name}`), read, tree, history, edit, removal);
  let state = await load(path, kind);
  paint(read, state);
  const events = followEvents(history, path);
  const dependents = followDependents(tree, kind, ns, name);
  await Promise.all([events(), dependents()]);
  const reload = async () => { state = await load(path, kind); paint(read, state); await events(); await dependents(); };
  if (canWrite()) {
    editor(edit, path, state, reload);
    deleter(removal, path, () => state.object.metadata.resourceVersion, async () => {
      try { await reload(); } catch (e) {
        if (e instanceof ApiError && e.status === 404) gone(read, edit, removal); else throw e;
      }
    });
  }
  // A resource changes under the page as agents report and corrections go out; a cheap conditional read keeps up.
  // Refused writes add events and dependents change on their own, so both are read on every tick; the dependents
  // go on after the resource is gone, since a cascade removes or releases them after the owner.
  const timer = setInterval(async () => {
    try {
      const r = await api(path, { headers: { 'If-None-Match': `"${state.etag}"` } });
      if (r.status !== 304) {
        state = await load(path, kind);
        paint(read, state);
        refreshUntouched(edit, path, state, reload);
      }
      await events();
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) gone(read, edit, removal);
    }
    await dependents().catch(() => {});
  }, 2000);
  return () => clearInterval(timer);
}

/** A deleted resource keeps its page, so the cascade can be followed in the dependents, without write controls. */
function gone(read, ...controls) {
  if (read.querySelector('#gone')) return;
  fill(read, message('error', h('span', { id: 'gone' }, 'This resource no longer exists.')));
  controls.forEach((el) => el.querySelectorAll('button, textarea, input').forEach((c) => { c.disabled = true; }));
}

/** Returns a function that reads the events and repaints them only when they changed, so the list does not flicker. */
function followEvents(el, path) {
  let shown = null;
  return async () => {
    const { data } = await api(path + '/events');
    const items = data.items || [];
    const key = JSON.stringify(items);
    if (key !== shown) {
      shown = key;
      fill(el, h('h2', { id: 'events-h' }, 'Events'), timeline(items));
    }
  };
}

async function load(path, kind) {
  const [object, diff, policy] = await Promise.all([api(path), api(path + '/diff'),
    optional('/api/v1/kinds/' + encodeURIComponent(kind))]);
  const st = object.data.status || {};
  // An older server sends no observed state in /diff: then only whether anything was observed is known.
  const observed = diff.data.observed !== undefined ? diff.data.observed : st.lastObservedAt ? {} : null;
  return { object: object.data, etag: object.etag, diff: diff.data.items, ignored: (policy && policy.ignoredFields) || [],
    observed, correction: diff.data.lastCorrection };
}

function paint(el, s) {
  const o = s.object;
  const m = o.metadata;
  const st = o.status || {};
  fill(el,
    h('p', {}, 'Sync: ', badge(st.syncStatus), st.health !== undefined ? [' Health: ', badge(healthOf(st.health))] : null),
    m.deletionTimestamp ? message('info', h('span', { id: 'deleting' }, badge('Deleting'), ' since ', m.deletionTimestamp,
      ' (', when(m.deletionTimestamp), ' ago)', (m.finalizers || []).length ? `, waiting for ${m.finalizers.join(', ')}` : '')) : null,
    h('h2', {}, 'Metadata'), dl([['uid', m.uid], ['resourceVersion', m.resourceVersion], ['generation', m.generation],
      ['observedGeneration', st.observedGeneration], ['created', when(m.creationTimestamp)],
      ['deleting since', m.deletionTimestamp ? when(m.deletionTimestamp) : null], ['labels', pairs(m.labels)],
      ['annotations', pairs(m.annotations)], ['finalizers', (m.finalizers || []).join(', ')],
      ['last observed', when(st.lastObservedAt)], ['converged', when(st.convergedAt)], ['attempts', st.attempts]]),
    owners(m.ownerReferences, m.namespace),
    h('h2', {}, 'Conditions'), (st.conditions || []).length ? table(null, ['Type', 'Status', 'Reason', 'Message', 'Since'],
      st.conditions.map((c) => h('tr', {}, h('td', {}, c.type), h('td', {}, c.status), h('td', {}, c.reason), h('td', {}, c.message),
        h('td', {}, when(c.lastTransitionTime))))) : h('p', {}, 'None.'),
    h('h2', {}, 'Reported status'), reported(st),
    h('h2', {}, 'Desired and observed'),
    s.observed ? reporter(s.observed) : h('p', { class: 'muted' }, 'No agent has reported this resource yet.'),
    table('Differences are marked in text and colour: changed, missing in observed (removed), unexpected in observed (added); '
      + 'fields the kind policy ignores are marked ignored.', ['Field', 'Desired', 'Observed', 'Difference'],
    fieldRows(o.spec, s.diff, s.ignored, s.observed).map((r) => h('tr', { class: 'd-' + r.mark, 'data-path': r.path },
      h('th', { scope: 'row' }, h('code', {}, r.path)), h('td', {}, h('code', {}, r.desired)), h('td', {}, h('code', {}, r.observed)),
      h('td', {}, r.label))), { id: 'fields' }),
    h('h2', {}, 'Last correction'), correction(st.lastCorrection, s.correction));
}

// statesync's own fields of status; the others are what the resource's controller or agent reported.
const OWN_STATUS = new Set(['observedGeneration', 'syncStatus', 'conditions', 'diff', 'attempts', 'lastCorrection',
  'convergedAt', 'lastObservedAt', 'health']);

function reported(st) {
  const fields = Object.fromEntries(Object.entries(st).filter(([k]) => !OWN_STATUS.has(k)));
  return Object.keys(fields).length ? h('pre', { id: 'reported-status' }, toYaml(fields))
    : h('p', { class: 'muted', id: 'reported-status' }, 'Nothing reported beyond the conditions.');
}

const healthOf = (x) => typeof x === 'string' ? x : (x || {}).status;
const pairs = (m) => Object.entries(m || {}).map(([k, v]) => `${k}=${v}`).join(', ');

function dl(entries) {
  return h('dl', { class: 'meta' }, entries.filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

const reporter = (o) => o.reporter ? h('p', { class: 'muted' }, `Observed by ${o.reporter} for generation ${o.observedGeneration}, `, when(o.observedAt), ' ago.') : null;

/**
 * The status's summary of the last correction. The pipeline does not keep a correction's patch once sent, so the
 * patch shows only if /diff ever carries it (lastCorrection.patch for the same command).
 */
function correction(c, full) {
  if (!c) return h('p', {}, 'None issued.');
  const patch = full && full.commandId === c.commandId ? full.patch : null;
  return [dl([['action', c.action], ['reason', c.reason], ['generation', c.generation], ['attempt', c.attempt],
    ['issued', when(c.issuedAt)], ['deadline', when(c.deadline)], ['command', c.commandId]]),
  patch ? table('The patch this correction sent', ['Operation', 'Field', 'Value'], patch.map((op) => h('tr', {},
    h('td', {}, op.op), h('th', { scope: 'row' }, h('code', {}, op.path)), h('td', {}, h('code', {}, op.op === 'REMOVE' ? '' : JSON.stringify(op.value))))),
  { id: 'patch' }) : null];
}

/** Newest first, as the server lists them; a repeated event shows its count and when it first happened. */
function timeline(events) {
  if (!events.length) return h('p', { id: 'events' }, 'No events.');
  return h('ol', { class: 'timeline', id: 'events' }, events.map((e) => h('li', { class: 'e-' + e.type, 'data-reason': e.reason },
    when(e.lastTimestamp), ' ', h('strong', {}, e.type), ' ', e.reason, e.message ? ': ' + e.message : '',
    e.count > 1 ? [' ', h('span', { class: 'count' }, `${e.count} times`), ' since ', when(e.firstTimestamp)] : null,
    h('span', { class: 'muted' }, ` (generation ${e.generation}, version ${e.resourceVersion})`))));
}

/**
 * Status updates change the resourceVersion too; an editor nobody has typed in follows them, so that only a real
 * concurrent write makes a save conflict.
 */
function refreshUntouched(el, path, state, reload) {
  const text = el.querySelector('textarea');
  if (text && text.value === text.defaultValue) editor(el, path, state, reload);
}

/**
 * The writer's controls: labels, annotations and spec as YAML, saved only if nobody wrote in between (If-Match). The
 * server parses the YAML, so its message (with the line of a syntax error) appears under the editor.
 */
function editor(el, path, state, reload) {
  const o = state.object;
  const base = o.metadata.resourceVersion;
  const text = h('textarea', { id: 'spec-editor', spellcheck: 'false', 'aria-describedby': 'edit-help edit-result' },
    toYaml({ metadata: { labels: o.metadata.labels, annotations: o.metadata.annotations }, spec: o.spec }));
  const out = h('div', { id: 'edit-result', 'aria-live': 'polite' });
  const save = async () => {
    try {
      const r = await api(path, { method: 'PUT', yaml: text.value, headers: { 'If-Match': `"${base}"` } });
      fill(out, message('ok', `Saved: generation ${r.data.metadata.generation}, version ${r.data.metadata.resourceVersion}.`));
      await reload();
      editor(el, path, { ...state, object: r.data }, reload);
      el.prepend(out);
    } catch (e) {
      const conflicted = e instanceof ApiError && e.status === 409;
      fill(out, conflicted ? await conflict(path, base, e, el, reload) : message('error', describeError(e)));
      if (!conflicted) markInvalid(text, e.message);
      out.scrollIntoView({ block: 'center' });
    }
  };
  fill(el, h('h2', {}, 'Edit'), h('p', { id: 'edit-help', class: 'muted' },
    `Edits version ${base}; saving fails with a conflict if the resource changed since.`),
  h('label', { for: 'spec-editor' }, 'Labels, annotations and spec (YAML)'), text, out,
  h('div', { class: 'actions' }, h('button', { type: 'button', id: 'save', onclick: save }, 'Save')));
}

const POLICIES = [
  ['Background', 'the default: deletes this resource now, then its dependents once it is gone.'],
  ['Foreground', 'keeps this resource, marked Deleting, until its dependents are deleted, then deletes it.'],
  ['Orphan', 'deletes only this resource; its dependents stay, without their reference to it.'],
];

/**
 * Delete with the choice of what happens to the dependents (propagationPolicy), conditional on the version the page
 * shows, after a second click. It lives outside the editor, which is rebuilt as the resource changes, so the choice
 * and the result survive the resource changing under a Foreground deletion.
 */
function deleter(el, path, version, after) {
  const out = h('div', { id: 'delete-result', 'aria-live': 'polite' });
  const choice = h('fieldset', {}, h('legend', {}, 'What happens to the dependents'), POLICIES.map(([p, text], i) =>
    h('div', { class: 'choice' }, h('input', { type: 'radio', name: 'propagationPolicy', id: 'propagation-' + p, value: p, checked: i === 0 }),
      ' ', h('label', { for: 'propagation-' + p }, h('strong', {}, p)), h('span', { class: 'muted' }, ': ' + text))));
  let armed = false;
  const del = h('button', { type: 'button', id: 'delete', class: 'danger', onclick: async () => {
    if (!armed) { armed = true; del.textContent = 'Confirm delete'; return; }
    armed = false;
    del.textContent = 'Delete';
    const policy = choice.querySelector('input:checked').value;
    try {
      await api(`${path}?propagationPolicy=${policy}`, { method: 'DELETE', headers: { 'If-Match': `"${version()}"` } });
      fill(out, message('ok', `Deletion requested with propagationPolicy ${policy}.`));
      await after();
    } catch (e) { fill(out, message('error', describeError(e))); }
  } }, 'Delete');
  fill(el, h('h2', { id: 'delete-h' }, 'Delete'), choice, h('div', { class: 'actions' }, del), out);
}

async function conflict(path, base, e, el, reload) {
  const newer = await api(path, { headers: {} }).then((r) => r.data).catch(() => null);
  return message('error', `Conflict: the resource changed since version ${base}; the current version is `,
    h('strong', { id: 'conflict-version' }, e.body.resourceVersion || '?'), '. Your edit was not saved.',
    newer ? h('pre', {}, toYaml({ spec: newer.spec })) : null,
    h('button', { type: 'button', id: 'reload', onclick: async () => {
      await reload();
      editor(el, path, { object: newer || (await api(path)).data }, reload);
    } }, 'Reload the newest version'));
}
