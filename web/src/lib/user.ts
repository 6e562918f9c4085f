import { useQuery } from '@tanstack/react-query';
import { api } from './api/client';
import { queryKeys } from './query';
import { useSession } from './session';

/** The logged-in user with assets; shared by home, mine and the settings screens. */
export function useUserInfo() {
  const { token } = useSession();
  return useQuery({
    queryKey: queryKeys.userInfo,
    queryFn: ({ signal }) => api.get('/api/vue/user/info', { signal }),
    enabled: token !== '',
  });
}
