// Every call to the statesync REST API goes through here, so the bearer token and the error form live in one place.
const TOKEN_KEY = 'statesync.token';

export const session = { token: sessionStorage.getItem(TOKEN_KEY) || '', role: 'reader', authEnabled: false };

export function setToken(token) {
  session.token = token;
  if (token) sessionStorage.setItem(TOKEN_KEY, token); else sessionStorage.removeItem(TOKEN_KEY);
}

export const canWrite = () => session.role === 'writer';

/** A non-2xx answer: the server's {code, reason, message} body, plus the current version a 409 carries. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : 'HTTP ' + status);
    this.status = status;
    this.body = body || {};
  }
}

// A cluster-scoped object has no namespace; the REST paths write its empty namespace as '-'.
export const resourcePath = (kind, ns, name) =>
  `/api/v1/resources/${encodeURIComponent(kind)}/${encodeURIComponent(ns || '-')}/${encodeURIComponent(name)}`;

export function authHeaders(extra = {}) {
  return session.token ? { ...extra, Authorization: 'Bearer ' + session.token } : { ...extra };
}

/**
 * Sends a request and returns {data, etag, status}; throws ApiError for anything but 2xx and 304. The body is a value
 * sent as JSON, or `yaml`, text sent as application/yaml for the server to parse.
 */
export async function api(path, { method = 'GET', body, yaml, headers = {}, signal } = {}) {
  const h = authHeaders(headers);
  let payload;
  if (yaml !== undefined) [h['Content-Type'], payload] = ['application/yaml', yaml];
  else if (body !== undefined) [h['Content-Type'], payload] = ['application/json', JSON.stringify(body)];
  const res = await fetch(path, { method, headers: h, signal, body: payload });
  const text = res.status === 304 ? '' : await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text }; }
  if (!res.ok && res.status !== 304) throw new ApiError(res.status, data);
  const etag = res.headers.get('ETag');
  return { data, status: res.status, etag: etag ? etag.replace(/^W\/|"/g, '') : null };
}

/**
 * Reads a Server-Sent Events body as it arrives and calls onEvent({type, id, data}) per event. fetch rather than
 * EventSource, because EventSource cannot send the Authorization header a token needs.
 */
export async function readEvents(response, onEvent) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let event = { data: [] };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') {
        if (event.data.length) onEvent({ type: event.type || 'message', id: event.id, data: event.data.join('\n') });
        event = { data: [] };
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const v = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') event.data.push(v);
        else if (field === 'event') event.type = v;
        else if (field === 'id') event.id = v;
      }
    }
  }
}

/** Whether an optional endpoint exists: a 404 or 405 means the server does not offer it (yet). */
export async function optional(path) {
  try {
    return (await api(path)).data;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 405)) return null;
    throw e;
  }
}
