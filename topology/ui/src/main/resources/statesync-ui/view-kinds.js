// Kind policies, readable as a table and, for a writer, editable as YAML. The server parses and validates it; its
// message (a syntax error with its line, an unknown field, a wrong type) is shown under the editor.
import { api, canWrite } from './api.js';
import { h, table, message, describeError, fill, markInvalid } from './dom.js';
import { toYaml } from './yaml.js';

const DOCS = {
  ignoredFields: 'spec paths never compared (* is any key or item)',
  listMergeKeys: 'list path → the field that identifies an item',
  orphanPolicy: 'observed without desired: REPORT, PRUNE or IGNORE',
  resyncPeriodMs: 'how often observed state is re-checked',
  correctionDeadlineMs: 'how long a correction may take',
  backoffBaseMs: 'first retry delay', backoffCapMs: 'longest retry delay',
  maxAttempts: 'attempts before Stalled', stalenessBoundMs: 'how old an observation may be',
  strict: 'prune fields statesync never set', strictTyping: 'compare 5 and 5.0 as different',
  finalizers: 'finalizers statesync removes itself',
};

export async function kinds(main) {
  const { data } = await api('/api/v1/kinds');
  const items = (data.items || []).sort((a, b) => a.kind.localeCompare(b.kind));
  main.append(h('h1', {}, 'Kinds'), h('div', {}, items.length ? items.map(section) : h('p', {}, 'No kind policies yet; every kind uses the defaults.')));
}

function section(policy) {
  const id = 'kind-' + policy.kind.replace(/[^A-Za-z0-9-]/g, '_');
  const el = h('section', { id, 'aria-labelledby': id + '-h' });
  const paint = (p) => fill(el, h('h2', { id: id + '-h' }, p.kind),
    table(null, ['Field', 'Value', 'Meaning'], Object.entries(p).filter(([k]) => k !== 'kind').map(([k, v]) =>
      h('tr', {}, h('th', { scope: 'row' }, h('code', {}, k)), h('td', {}, h('code', {}, v === null ? 'default' : JSON.stringify(v))),
        h('td', { class: 'muted' }, DOCS[k] || '')))),
    canWrite() ? editor(p, paint) : null);
  paint(policy);
  return el;
}

function editor(policy, paint) {
  const id = 'edit-' + policy.kind.replace(/[^A-Za-z0-9-]/g, '_');
  const text = h('textarea', { id, spellcheck: 'false', rows: 12, 'aria-describedby': id + '-result' }, toYaml(policy));
  const out = h('div', { id: id + '-result', 'aria-live': 'polite' });
  const save = async () => {
    try {
      const { data } = await api('/api/v1/kinds/' + encodeURIComponent(policy.kind), { method: 'PUT', yaml: text.value });
      paint(data);
    } catch (e) {
      fill(out, message('error', describeError(e)));
      markInvalid(text, e.message);
    }
  };
  return h('details', {}, h('summary', {}, 'Edit ' + policy.kind),
    h('label', { for: id }, 'Policy (YAML)'), text, out, h('div', { class: 'actions' }, h('button', { type: 'button', onclick: save }, 'Save')));
}
