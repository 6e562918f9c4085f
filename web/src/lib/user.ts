import { useQuery } from '@tanstack/react-query';
import { api } from './api/client';
import { queryKeys } from './query';
import { type Role, useSession } from './session';

/** The logged-in user with assets; shared by home, mine and the settings screens. */
export function useUserInfo() {
  const { token } = useSession();
  return useQuery({
    queryKey: queryKeys.userInfo,
    queryFn: ({ signal }) => api.get('/api/vue/user/info', { signal }),
    enabled: token !== '',
  });
}

/**
 * The role the server reports for this session ('' until it has answered). Menus and screens
 * follow it, never a value kept in the browser, which a member can edit; the server refuses
 * other roles' routes all the same.
 */
export function useRole(): Role | '' {
  return useUserInfo().data?.role ?? '';
}
