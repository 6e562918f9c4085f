import { useQuery } from '@tanstack/react-query';
import { api, type DataOf } from '@/lib/api/client';
import { walletKeys } from '@/domain/wallet/keys';

export type WithdrawChannel = DataOf<'/api/vue/funds/withdrawChannels', 'get'>[number];
export type CurrencyBalance = DataOf<'/api/vue/funds/balances', 'get'>[number];
export type Quote = DataOf<'/api/vue/funds/exchange/quote', 'post'>;

export function useWithdrawChannels() {
  return useQuery({ queryKey: walletKeys.withdrawChannels, queryFn: ({ signal }) => api.get('/api/vue/funds/withdrawChannels', { signal }), staleTime: 30_000 });
}

export function useBalances() {
  return useQuery({ queryKey: walletKeys.balances, queryFn: ({ signal }) => api.get('/api/vue/funds/balances', { signal }) });
}

/** The available cash of one currency ('0' while unknown). */
export function availableIn(balances: CurrencyBalance[] | undefined, currency: string): string {
  return balances?.find((b) => b.currency === currency)?.available ?? '0';
}

/** What a withdrawal in one currency accepts now, as the server reckons it ('0' while unknown). */
export function withdrawableIn(balances: CurrencyBalance[] | undefined, currency: string): string {
  return balances?.find((b) => b.currency === currency)?.withdrawable ?? '0';
}
