import { useQuery } from '@tanstack/react-query';
import { api, type DataOf } from '@/lib/api/client';
import { walletKeys } from '@/domain/wallet/keys';

export type RealNameView = DataOf<'/api/vue/user/realname', 'get'>;

export function useRealName() {
  return useQuery({ queryKey: walletKeys.realName, queryFn: ({ signal }) => api.get('/api/vue/user/realname', { signal }) });
}
