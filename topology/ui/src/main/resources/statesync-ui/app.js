// The page's entry: sign-in when the server wants a token, then one view per URL hash (#/resources?kind=…), so any
// view can be shared as a link.
import { api, session, setToken, ApiError } from './api.js';
import { h, message, describeError, fill } from './dom.js';
import { onLive } from './collection.js';
import { overview } from './view-overview.js';
import { resources } from './view-resources.js';
import { resource } from './view-resource.js';
import { kinds } from './view-kinds.js';

const main = document.getElementById('main');
let leave = null;

function route() {
  const [path, qs] = location.hash.replace(/^#/, '').split('?');
  const parts = (path || '/').split('/').filter(Boolean).map(decodeURIComponent);
  return { parts, query: new URLSearchParams(qs || '') };
}

async function render() {
  if (leave) leave();
  leave = null;
  const { parts, query } = route();
  const view = parts[0] || 'overview';
  for (const a of document.querySelectorAll('header nav a')) {
    if (a.dataset.view === view) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  fill(main);
  try {
    if (view === 'resources' && parts.length === 4) {
      leave = await resource(main, parts[1], parts[2] === '-' ? '' : parts[2], parts[3]);
    }
    else if (view === 'resources') leave = resources(main, query);
    else if (view === 'kinds') leave = await kinds(main);
    else leave = overview(main);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return signIn('The token was refused.');
    main.append(message('error', describeError(e)));
  }
}

/** Asks the server what the token may do; 401 means a token is needed. */
async function identify() {
  try {
    const { data } = await api('/api/v1/whoami');
    session.role = data.role;
    session.authEnabled = data.authEnabled;
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return false;
    throw e;
  }
}

function signIn(problem) {
  setToken('');
  const input = h('input', { id: 'token', type: 'password', autocomplete: 'off', required: true });
  fill(main, h('h1', {}, 'Sign in'),
    problem ? message('error', problem) : h('p', {}, 'This statesync instance requires a bearer token.'),
    h('form', { class: 'filters', onsubmit: async (ev) => {
      ev.preventDefault();
      setToken(input.value.trim());
      await start();
    } }, h('label', { for: 'token' }, 'Token', input), h('button', { type: 'submit' }, 'Sign in')));
  input.focus();
}

function showWho() {
  const who = document.getElementById('who');
  fill(who, session.role === 'writer' ? 'writer' : 'reader (read-only)',
    session.authEnabled ? h('button', { type: 'button', onclick: () => { setToken(''); location.reload(); } }, 'Sign out') : null);
}

async function start() {
  if (!(await identify())) return signIn(session.token ? 'The token was refused.' : null);
  showWho();
  await render();
}

onLive((s) => {
  const el = document.getElementById('live');
  el.textContent = s.state === 'live' ? 'live' : s.state;
  el.className = s.state === 'live' ? 'live' : 'down';
  el.dataset.resumes = s.resumes;
  el.dataset.staleEvents = s.staleEvents;
});
window.addEventListener('hashchange', () => { if (session.role) render(); });
start().catch((e) => fill(main, message('error', describeError(e))));
