// Ownership on a resource's page: who controls it and who else owns it (metadata.ownerReferences), and what it owns
// as a tree (GET .../dependents). Children are fetched only for the nodes the reader opens, so a large tree costs one
// request per open node on each refresh, not one per resource.
import { optional, resourcePath } from './api.js';
import { h, badge, fill } from './dom.js';

const healthOf = (x) => typeof x === 'string' ? x : (x || {}).status;
const keyOf = (r) => `${r.kind}/${r.namespace}/${r.name}`;

export function resourceLink(kind, ns, name) {
  return h('a', { href: '#/resources/' + [kind, ns || '-', name].map(encodeURIComponent).join('/'), 'data-key': `${kind}/${ns}/${name}` },
    `${kind} ${ns}/${name}`);
}

/**
 * The owner references: the controller first, as "Controlled by", then the other owners. A reference carries no
 * namespace, because an owner always lives in its dependent's namespace.
 */
export function owners(refs, ns) {
  if (!refs || !refs.length) return null;
  const controller = refs.find((r) => r.controller);
  const others = refs.filter((r) => r !== controller);
  const ref = (r) => [resourceLink(r.kind, ns, r.name), r.blockOwnerDeletion ? ' (blocks its foreground deletion)' : null];
  return h('section', { id: 'owners', 'aria-labelledby': 'owners-h' }, h('h2', { id: 'owners-h' }, 'Owners'),
    controller ? h('p', { id: 'controlled-by' }, 'Controlled by ', ref(controller)) : null,
    others.length ? [h('p', {}, controller ? 'Other owners:' : 'Owners, none of them the controller:'),
      h('ul', { id: 'other-owners' }, others.map((r) => h('li', {}, ref(r))))] : null);
}

/**
 * Returns a function that reads the dependents tree and repaints it only when it changed, keeping which nodes are
 * open across repaints. Paints nothing while the server offers no dependents.
 */
export function followDependents(el, kind, ns, name) {
  const open = new Set();
  let shown = null;
  const refresh = async () => {
    const root = { kind, namespace: ns, name };
    const items = await children(root, open, new Set([keyOf(root)]));
    const key = JSON.stringify(items);
    if (key === shown) return;
    shown = key;
    if (!items) { fill(el); return; }
    fill(el, h('h2', { id: 'dependents-h' }, 'Dependents'), tree(items, open, refresh, 'dependents'));
  };
  return refresh;
}

/** The dependents of a node, each with its own children when it is open; a cycle of references stops at a repeat. */
async function children(node, open, seen) {
  const data = await optional(resourcePath(node.kind, node.namespace, node.name) + '/dependents');
  if (!data) return null;
  return Promise.all((data.items || []).map(async (d) => {
    const k = keyOf(d);
    const expand = open.has(k) && !seen.has(k);
    return { ...d, children: expand ? await children(d, open, new Set([...seen, k])) : undefined };
  }));
}

function tree(items, open, refresh, id) {
  if (!items.length) return h('p', { id, class: 'muted' }, 'None.');
  return h('ul', { id, class: 'tree' }, items.map((d) => node(d, open, refresh)));
}

function node(d, open, refresh) {
  const k = keyOf(d);
  const isOpen = open.has(k);
  const toggle = h('button', { type: 'button', class: 'link', 'aria-expanded': String(isOpen),
    'aria-label': `${isOpen ? 'Hide' : 'Show'} the dependents of ${d.kind} ${d.namespace}/${d.name}`,
    onclick: async () => { if (isOpen) open.delete(k); else open.add(k); await refresh(); } }, isOpen ? '−' : '+');
  const health = healthOf(d.health);
  return h('li', { 'data-key': k, 'data-sync': d.syncStatus, 'data-health': health || null },
    toggle, ' ', resourceLink(d.kind, d.namespace, d.name), ' ', badge(d.syncStatus), health ? [' ', badge(health)] : null,
    d.deleting && d.syncStatus !== 'Deleting' ? [' ', badge('Deleting')] : null,
    d.controller ? null : h('span', { class: 'muted' }, ' (owner, not controller)'),
    d.ownerUidMatches === false ? h('span', { class: 'muted' }, ' (names an earlier owner of the same name)') : null,
    isOpen && d.children ? tree(d.children, open, refresh, null) : null);
}
