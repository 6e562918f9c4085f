import { Navigate, Outlet } from 'react-router-dom';
import { ListLoading } from '@/components/ListState';
import { type Role, useSession } from '@/lib/session';
import { useUserInfo } from '@/lib/user';
import { KeepAliveOutlet } from './KeepAliveOutlet';

/** Screens that need a session; without one the app goes to the login page. */
export function RequireSession() {
  const { token } = useSession();
  if (!token) return <Navigate to="/login/login" replace />;
  return <KeepAliveOutlet />;
}

/** Ops and auditor screens: other roles go home, by the role the server reports for the session. */
export function RequireRole({ role }: { role: Role }) {
  const info = useUserInfo();
  if (info.isPending) return <ListLoading />;
  if (info.data?.role !== role) return <Navigate to="/home/index" replace />;
  return <Outlet />;
}
