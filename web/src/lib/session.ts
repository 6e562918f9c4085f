import { useSyncExternalStore } from 'react';

// The spec's storage keys: the session token and account live in localStorage and are mirrored
// here; every write goes through saveToken/saveAccount so the two never disagree.
export const TOKEN_KEY = 'tokend';
export const ACCOUNT_KEY = 'account';
export const ROLE_KEY = 'role';
/** Keys the root shell removes when it unmounts (spec section 3). */
export const TRANSIENT_KEYS = ['tklm', 'zjkm', 'hklm'] as const;

export type Role = 'member' | 'ops' | 'auditor';

export interface SessionState {
  token: string;
  account: string;
  role: Role | '';
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

function asRole(v: string): Role | '' {
  return v === 'member' || v === 'ops' || v === 'auditor' ? v : '';
}

let state: SessionState = load();
const listeners = new Set<() => void>();

function load(): SessionState {
  return { token: read(TOKEN_KEY), account: read(ACCOUNT_KEY), role: asRole(read(ROLE_KEY)) };
}

function set(next: Partial<SessionState>): void {
  state = { ...state, ...next };
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

export function saveRole(role: Role | ''): void {
  write(ROLE_KEY, role);
  set({ role });
}

/** Stores a new session from a login or register answer. */
export function saveSession(s: { token: string; account: string; role: string }): void {
  saveToken(s.token);
  saveAccount(s.account);
  saveRole(asRole(s.role));
}

/** Ends the session locally (logout, 401, password change). */
export function clearSession(): void {
  saveToken('');
  saveRole('');
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
    if (e.key === null || e.key === TOKEN_KEY || e.key === ACCOUNT_KEY || e.key === ROLE_KEY) reloadSession();
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

/** Where each role lands after logging in. */
export function landingFor(role: string): string {
  if (role === 'ops') return '/ops/deposits';
  if (role === 'auditor') return '/audit/timeline';
  return '/home/index';
}
