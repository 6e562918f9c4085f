import { useQuery } from '@tanstack/react-query';
import { api, type DataOf } from '@/lib/api/client';
import { walletKeys } from '@/lib/wallet/keys';

export type RealNameView = DataOf<'/api/vue/user/realname', 'get'>;
export type BankCard = DataOf<'/api/vue/user/cards', 'get'>[number];
export type CreditRule = DataOf<'/api/vue/user/creditRule', 'get'>;

export function useRealName() {
  return useQuery({ queryKey: walletKeys.realName, queryFn: ({ signal }) => api.get('/api/vue/user/realname', { signal }) });
}

export function useCards() {
  return useQuery({ queryKey: walletKeys.cards, queryFn: ({ signal }) => api.get('/api/vue/user/cards', { signal }) });
}

export function useCreditRule() {
  return useQuery({ queryKey: walletKeys.creditRule, queryFn: ({ signal }) => api.get('/api/vue/user/creditRule', { signal }) });
}
