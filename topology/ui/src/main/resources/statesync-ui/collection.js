// A live set of resources: one list, then one watch from the list's position. Each event's SSE id is the position
// after it, so a dropped stream resumes from the last id and sees every change once; a 410 means list again.
import { api, authHeaders, readEvents, ApiError } from './api.js';

const PAGE = 5000;
const listeners = new Set();
export const liveState = { state: 'idle', resumes: 0, staleEvents: 0, position: '' };

/** The few fields the pages show, so that 100,000 resources stay small in memory. */
export function summarize(o) {
  const m = o.metadata || {};
  const s = o.status || {};
  const health = s.health === undefined ? undefined : typeof s.health === 'string' ? s.health : (s.health || {}).status;
  const times = (s.conditions || []).map((c) => c.lastTransitionTime).filter(Boolean).sort();
  return {
    key: `${o.kind}/${m.namespace}/${m.name}`, kind: o.kind, namespace: m.namespace, name: m.name,
    rv: m.resourceVersion, generation: m.generation, observedGeneration: s.observedGeneration,
    sync: s.syncStatus, health, created: m.creationTimestamp,
    correctedAt: s.lastCorrection ? s.lastCorrection.issuedAt : null,
    correction: s.lastCorrection ? s.lastCorrection.reason : null,
    changedAt: times.length ? times[times.length - 1] : m.creationTimestamp,
  };
}

export class Collection {
  constructor(query) {
    this.query = query;
    this.items = new Map();
    this.position = null;
    this.loaded = false;
    this.hasHealth = false;
    this.subscribers = new Set();
    this.abort = new AbortController();
    this.timer = null;
    this.run();
  }

  params(extra) {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...this.query, ...extra })) if (v) p.set(k, v);
    return p.toString();
  }

  async list() {
    const items = new Map();
    let cont = '';
    let position = null;
    do {
      const { data } = await api('/api/v1/resources?' + this.params({ limit: PAGE, continue: cont }), { signal: this.abort.signal });
      position = position || data.metadata.resourceVersion;
      for (const o of data.items) this.put(items, summarize(o));
      cont = data.metadata.continue;
    } while (cont);
    this.items = items;
    this.position = position;
    this.loaded = true;
    this.changed();
  }

  async run() {
    let delay = 250;
    while (!this.abort.signal.aborted) {
      try {
        if (!this.position) await this.list();
        await this.watch();
        delay = 250;
      } catch (e) {
        if (this.abort.signal.aborted) return;
        if (e instanceof ApiError && e.status === 410) this.position = null;
        this.error = e;
      }
      if (this.abort.signal.aborted) return;
      setLive('reconnecting');
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 5000);
      liveState.resumes++;
    }
  }

  async watch() {
    const res = await fetch('/api/v1/watch?' + this.params({ resourceVersion: this.position }), {
      headers: authHeaders({ 'Last-Event-ID': this.position }), signal: this.abort.signal,
    });
    if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
    this.error = null;
    setLive('live', this.position);
    await readEvents(res, (e) => this.apply(e));
  }

  apply(e) {
    const event = JSON.parse(e.data);
    if (e.type === 'ERROR') {
      throw new ApiError(event.object.code, event.object);
    }
    if (e.type === 'ADDED' || e.type === 'MODIFIED') this.put(this.items, summarize(event.object));
    else if (e.type === 'DELETED') this.items.delete(summarize(event.object).key);
    if (e.id) this.position = e.id;
    setLive('live', this.position);
    if (e.type !== 'BOOKMARK') this.changed();
  }

  /** Counts an event that is not newer than what is held: a resumed watch that repeats a change would show here. */
  put(items, r) {
    const held = items.get(r.key);
    if (held && Number(held.rv) >= Number(r.rv)) liveState.staleEvents++;
    if (r.health !== undefined) this.hasHealth = true;
    items.set(r.key, r);
  }

  /** Coalesces bursts of events into one repaint. */
  changed() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      for (const fn of this.subscribers) fn(this);
    }, 100);
  }

  subscribe(fn) {
    this.subscribers.add(fn);
    if (this.loaded) fn(this);
    return () => this.subscribers.delete(fn);
  }

  close() {
    this.abort.abort();
  }
}

let current = null;

/** One collection at a time: a page with other filters closes the previous stream. */
export function collection(query) {
  const clean = Object.fromEntries(Object.entries(query).filter(([, v]) => v));
  const key = JSON.stringify(clean);
  if (current && current.id === key) return current.collection;
  if (current) current.collection.close();
  current = { id: key, collection: new Collection(clean) };
  return current.collection;
}

function setLive(state, position) {
  liveState.state = state;
  if (position) liveState.position = position;
  for (const fn of listeners) fn(liveState);
}

export const onLive = (fn) => listeners.add(fn);
