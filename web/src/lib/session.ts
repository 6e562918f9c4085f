import { useSyncExternalStore } from 'react';

// The spec's storage keys: the session token and account live in localStorage and are mirrored
// here; every write goes through saveToken/saveAccount so the two never disagree. The role is not
// kept here: anyone can edit localStorage, so menus and screens follow the role the server
// reports for the session (useRole in lib/user).
export const TOKEN_KEY = 'tokend';
export const ACCOUNT_KEY = 'account';
/** Keys the root shell removes when it unmounts (spec section 3). */
export const TRANSIENT_KEYS = ['tklm', 'zjkm', 'hklm'] as const;

export type Role = 'member' | 'ops' | 'auditor';

export interface SessionState {
  token: string;
  account: string;
}

function read(key: string): string {
  try {
    return localStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

function write(key: string, value: string): void {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch {
    // Private mode without storage: the in-memory state still works for this visit.
  }
}

let state: SessionState = load();
const listeners = new Set<() => void>();
let hadSession = state.token !== '';

/**
 * Whether this page has had a session: a screen left by logging out (or by a session that ended)
 * is not one a visitor asked for, so the session guard does not remember it for the next login.
 */
export function hadSessionHere(): boolean {
  return hadSession;
}

function load(): SessionState {
  return { token: read(TOKEN_KEY), account: read(ACCOUNT_KEY) };
}

function set(next: Partial<SessionState>): void {
  state = { ...state, ...next };
  if (state.token) hadSession = true;
  listeners.forEach((l) => l());
}

export function saveToken(token: string): void {
  write(TOKEN_KEY, token);
  set({ token });
}

export function saveAccount(account: string): void {
  write(ACCOUNT_KEY, account);
  set({ account });
}

/** Stores a new session from a login or register answer. */
export function saveSession(s: { token: string; account: string }): void {
  saveToken(s.token);
  saveAccount(s.account);
}

/** Ends the session locally (logout, 401, password change). */
export function clearSession(): void {
  saveToken('');
}

export function getSession(): SessionState {
  return state;
}

/** Re-reads localStorage (tests, and another tab's login). */
export function reloadSession(): void {
  set(load());
}

// A login or logout in another tab changes localStorage there; follow it here.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key === TOKEN_KEY || e.key === ACCOUNT_KEY) reloadSession();
  });
}

export function subscribeSession(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

export function removeTransientKeys(): void {
  for (const k of TRANSIENT_KEYS) {
    try {
      localStorage.removeItem(k);
    } catch {
      // nothing to remove without storage
    }
  }
}

const RETURN_KEY = 'loginReturn';

/**
 * Remembers the screen a visitor wanted (an order ticket, a favourite) for after the login; the
 * login screen and its variants keep it while the visitor switches between them.
 */
export function rememberReturn(path: string): void {
  try {
    if (path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/login/')) sessionStorage.setItem(RETURN_KEY, path);
  } catch {
    // no storage: the login lands on the role's home
  }
}

/** The remembered screen, once (members only; others land on their role's home). */
export function takeReturn(role: string): string | null {
  try {
    const p = sessionStorage.getItem(RETURN_KEY);
    sessionStorage.removeItem(RETURN_KEY);
    return role === 'member' && p && p.startsWith('/') && !p.startsWith('//') ? p : null;
  } catch {
    return null;
  }
}

/** Where each role lands after logging in. */
export function landingFor(role: string): string {
  if (role === 'ops') return '/ops/console';
  if (role === 'auditor') return '/audit/timeline';
  return '/home/index';
}
