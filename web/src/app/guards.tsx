import { Navigate, Outlet, useLocation, useMatches } from 'react-router-dom';
import { hadSessionHere, rememberReturn, type Role, useSession } from '@/lib/session';
import { useUserInfo } from '@/lib/user';
import { KeepAliveOutlet } from './KeepAliveOutlet';
import { handleOf } from './routeHandle';

/**
 * Screens that need a session; without one the app goes to the login page, which comes back here
 * after logging in. Screens flagged for visitors (market quotes) open without one.
 */
export function RequireSession() {
  const { token } = useSession();
  const matches = useMatches();
  const loc = useLocation();
  const leaf = matches[matches.length - 1];
  if (!token && !handleOf(leaf?.handle).visitors) {
    if (!hadSessionHere()) rememberReturn(loc.pathname + loc.search);
    return <Navigate to="/login/login" replace />;
  }
  return <KeepAliveOutlet />;
}

/** Ops and auditor screens: other roles go home, by the role the server reports for the session. */
export function RequireRole({ role }: { role: Role }) {
  const info = useUserInfo();
  // Nothing while the server answers: the kit's loading indicator would pull antd-mobile into
  // the first route, and ops and auditor screens show their own once they mount.
  if (info.isPending) return null;
  if (info.data?.role !== role) return <Navigate to="/home/index" replace />;
  return <Outlet />;
}
