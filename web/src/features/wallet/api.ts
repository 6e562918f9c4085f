import { useQuery } from '@tanstack/react-query';
import { api, type DataOf } from '@/lib/api/client';
import { useSession } from '@/lib/session';

export type Wallet = DataOf<'/api/vue/wallet', 'get'>;
export type WalletCurrency = Wallet['currencies'][number];
export type Statement = DataOf<'/api/vue/user/statement', 'get'>;

export const walletFeatureKeys = {
  wallet: ['wallet', 'holds'] as const,
  statement: (month: string) => ['wallet', 'statement', month] as const,
};

/** The member's cash per currency with every hold on it. */
export function useWallet() {
  const { token } = useSession();
  return useQuery({ queryKey: walletFeatureKeys.wallet, queryFn: ({ signal }) => api.get('/api/vue/wallet', { signal }), enabled: token !== '' });
}

/** The monthly statement of a Taipei month (YYYY-MM). */
export function useStatement(month: string) {
  return useQuery({
    queryKey: walletFeatureKeys.statement(month),
    queryFn: ({ signal }) => api.get('/api/vue/user/statement', { query: { month }, signal }),
  });
}
