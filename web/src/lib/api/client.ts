import type { paths } from './schema';
import { clearSession, getSession } from '../session';
import { takeFirstRead } from './firstRead';
import { toastGeneric as showGeneric, toastMessage as showMessage } from '../toast';

export const API_BASE = '/api/vue/';
/** Images and files live under the origin plus /api/ (spec section 7). */
export const IMAGE_BASE = '/api/';
export const TIMEOUT_MS = 10_000;
export const LOGIN_REDIRECT_MS = 1_500;

export interface Envelope<T> {
  status: number;
  msg?: string;
  data: T;
}

type ErrorKind = 'refused' | 'http' | 'timeout' | 'network' | 'parse';

/** Any failed call. msg is the server's message key when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly httpStatus: number,
    readonly msg?: string,
    readonly data?: unknown,
  ) {
    super(msg ?? kind);
    this.name = 'ApiError';
  }
}

// ---- types drawn from the generated schema --------------------------------------------------

type Method = 'get' | 'post';
type OpOf<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
/** Paths of the schema that have the given method. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

type JsonOK<Op> = Op extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
export type DataOf<P extends keyof paths, M extends Method> = JsonOK<OpOf<P, M>> extends { data: infer D } ? D : never;
type JsonBody<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : Op extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : undefined;
export type BodyOf<P extends keyof paths> = JsonBody<OpOf<P, 'post'>>;
type PathParamsOf<Op> = Op extends { parameters: { path: infer X } } ? ([X] extends [never] ? undefined : X) : undefined;
type QueryOf<Op> = Op extends { parameters: { query?: infer X } } ? ([X] extends [never | undefined] ? undefined : X) : undefined;

interface CallOptions {
  /** Idempotency key of the user action; made here when a POST has none. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** No toast on failure (background calls the user did not ask for, such as the config). */
  silent?: boolean;
}

// ---- read-your-writes and the 401 redirect ----------------------------------------------------

let lastPosition = 0;
/** Highest global position any command answered with; reads send it as Lotbook-Position. */
export function seenPosition(): number {
  return lastPosition;
}
/** Notes a position the client learnt elsewhere (a pushed event's): the next reads wait for it. */
export function noteSeenPosition(p: number): void {
  if (p > lastPosition) lastPosition = p;
}
function notePosition(data: unknown): void {
  if (data && typeof data === 'object' && 'position' in data) {
    const p = (data as { position: unknown }).position;
    if (typeof p === 'number' && p > lastPosition) lastPosition = p;
  }
}

let goLogin: () => void = () => {
  window.location.hash = '#/login/login';
};
let redirectTimer: ReturnType<typeof setTimeout> | undefined;
/** The router replaces the default hash change with its own navigate. */
export function setLoginRedirect(fn: () => void): void {
  goLogin = fn;
}
/** Ends the session and goes to login 1.5 s later, so the toast can be read where it appeared. */
function scheduleLogin(): void {
  if (redirectTimer !== undefined) return;
  redirectTimer = setTimeout(() => {
    redirectTimer = undefined;
    clearSession();
    goLogin();
  }, LOGIN_REDIRECT_MS);
}

export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Plain-HTTP origins other than localhost have no randomUUID; getRandomValues is everywhere.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// ---- the one request function --------------------------------------------------------------

interface RawRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  body?: BodyInit;
  json?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
  silent?: boolean;
  /** A POST that only reads (config, favourites): it asks for read-your-writes like a GET. */
  read?: boolean;
}

function fill(path: string, params: Record<string, string> | undefined): string {
  if (!params) return path;
  return path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(params[k] ?? ''));
}

function withQuery(path: string, query: Record<string, unknown> | undefined): string {
  if (!query) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * Sends one request and unwraps the envelope. Failures toast as the spec says (the server's
 * translated msg for 2 s, else the generic text for 3 s), 401 ends the session and goes to login
 * 1.5 s later; the returned promise rejects with an ApiError either way.
 */
export async function request<T>(req: RawRequest): Promise<T> {
  const toastGeneric = req.silent ? () => {} : showGeneric;
  const toastMessage = req.silent ? () => {} : showMessage;
  if (!req.url.startsWith(API_BASE)) throw new Error(`api path outside ${API_BASE}: ${req.url}`);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const { token, account } = getSession();
  if (token) headers.token = token;
  if (account) headers.account = account;
  if (req.idempotencyKey) headers['Idempotency-Key'] = req.idempotencyKey;
  if ((req.method === 'GET' || req.read) && lastPosition > 0) headers['Lotbook-Position'] = String(lastPosition);
  let body = req.body;
  if (req.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(req.json);
  }

  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctl.abort();
  }, TIMEOUT_MS);
  const onAbort = () => ctl.abort();
  req.signal?.addEventListener('abort', onAbort);

  let res: Response;
  try {
    // A cold start's first GET may already be on its way (index.html sent it with the same headers).
    const early = req.method === 'GET' && lastPosition === 0 ? takeFirstRead(req.url, ctl.signal) : undefined;
    res = await (early ?? fetch(req.url, { method: req.method, headers, body, signal: ctl.signal }));
  } catch (e) {
    if (req.signal?.aborted && !timedOut) throw e; // the caller cancelled: no toast
    toastGeneric();
    throw new ApiError(timedOut ? 'timeout' : 'network', 0);
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
  }

  let env: Partial<Envelope<T>> | undefined;
  try {
    env = (await res.json()) as Partial<Envelope<T>>;
  } catch {
    env = undefined;
  }

  if (res.status === 401) {
    if (env?.msg) toastMessage(env.msg);
    else toastGeneric();
    scheduleLogin();
    throw new ApiError('http', 401, env?.msg, env?.data);
  }
  if (!env || typeof env !== 'object') {
    toastGeneric();
    throw new ApiError('parse', res.status);
  }
  if (env.status !== 1 || !res.ok) {
    if (env.msg) toastMessage(env.msg);
    else toastGeneric();
    throw new ApiError(res.ok ? 'refused' : 'http', res.status, env.msg, env.data);
  }
  notePosition(env.data);
  return env.data as T;
}

// ---- typed helpers ---------------------------------------------------------------------------

type GetArgs<P extends PathsWith<'get'>> = CallOptions & {
  params?: PathParamsOf<OpOf<P, 'get'>>;
  query?: QueryOf<OpOf<P, 'get'>>;
};

type PostArgs<P extends PathsWith<'post'>> = CallOptions & {
  params?: PathParamsOf<OpOf<P, 'post'>>;
};

export const api = {
  get<P extends PathsWith<'get'>>(path: P, args: GetArgs<P> = {}): Promise<DataOf<P, 'get'>> {
    const url = withQuery(fill(path, args.params as Record<string, string> | undefined), args.query as Record<string, unknown> | undefined);
    return request({ method: 'GET', url, signal: args.signal, silent: args.silent });
  },

  /** A state-changing POST; it always carries an Idempotency-Key (made here if not given). */
  post<P extends PathsWith<'post'>>(path: P, body: BodyOf<P>, args: PostArgs<P> = {}): Promise<DataOf<P, 'post'>> {
    return request({
      method: 'POST',
      url: fill(path, args.params as Record<string, string> | undefined),
      json: body ?? {},
      idempotencyKey: args.idempotencyKey ?? newIdempotencyKey(),
      signal: args.signal,
    });
  },

  /** A POST that reads (the spec's config call): no idempotency key. */
  query<P extends PathsWith<'post'>>(path: P, body: BodyOf<P>, args: CallOptions = {}): Promise<DataOf<P, 'post'>> {
    return request({ method: 'POST', url: path, json: body, signal: args.signal, silent: args.silent, read: true });
  },

  /** Multipart upload to /api/vue/files. */
  upload(file: File, args: CallOptions = {}): Promise<DataOf<'/api/vue/files', 'post'>> {
    const form = new FormData();
    form.append('file', file);
    return request({
      method: 'POST',
      url: '/api/vue/files',
      body: form,
      idempotencyKey: args.idempotencyKey ?? newIdempotencyKey(),
      signal: args.signal,
    });
  },
};

/** URL of an uploaded image (files are read with the session headers, see useImage). */
export function fileUrl(id: string): string {
  return `${API_BASE}files/${encodeURIComponent(id)}`;
}

/** Test hook: forget the position and any pending redirect. */
export function resetClientState(): void {
  lastPosition = 0;
  if (redirectTimer !== undefined) clearTimeout(redirectTimer);
  redirectTimer = undefined;
}
