import { Navigate, Outlet } from 'react-router-dom';
import { type Role, useSession } from '@/lib/session';
import { KeepAliveOutlet } from './KeepAliveOutlet';

/** Screens that need a session; without one the app goes to the login page. */
export function RequireSession() {
  const { token } = useSession();
  if (!token) return <Navigate to="/login/login" replace />;
  return <KeepAliveOutlet />;
}

/** Ops and auditor screens: other roles go home. */
export function RequireRole({ role }: { role: Role }) {
  const s = useSession();
  if (s.role !== role) return <Navigate to="/home/index" replace />;
  return <Outlet />;
}
