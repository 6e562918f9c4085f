import { useQuery } from '@tanstack/react-query';
import { api, type DataOf } from '@/lib/api/client';
import { useSession } from '@/lib/session';
import { walletKeys } from './keys';

// The money data that several features read (mine, the wallet screens): one query each.

export type Card = DataOf<'/api/vue/user/cards', 'get'>[number];
export type CreditRule = DataOf<'/api/vue/user/creditRule', 'get'>;

/** The member's bank cards. */
export function useCards() {
  return useQuery({ queryKey: walletKeys.cards, queryFn: ({ signal }) => api.get('/api/vue/user/cards', { signal }) });
}

/** The credit score rule: start, withdrawal threshold, reasons and the member's history. */
export function useCreditRule() {
  return useQuery({ queryKey: walletKeys.creditRule, queryFn: ({ signal }) => api.get('/api/vue/user/creditRule', { signal }) });
}

export type CreditSummary = DataOf<'/api/vue/credit', 'get'>;

/** The member's credit now (the server's credit summary): limit with its rule, loanable, borrowed, debt, loans outstanding. */
export function useCreditSummary(enabled = true) {
  const { token } = useSession();
  return useQuery({
    queryKey: walletKeys.creditSummary,
    queryFn: ({ signal }) => api.get('/api/vue/credit', { signal }),
    enabled: enabled && token !== '',
  });
}
