import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAction } from '@/lib/action';
import { marketApi, marketKeys, useFavorites } from '@/domain/market/api';
import type { Quote, QuoteDetail } from '@/domain/market/types';
import { toast } from '@/lib/toast';

/** Removes a symbol from every cached favourites list (all, listed, otc). */
function dropCached(client: QueryClient, symbol: string) {
  client.setQueriesData<Quote[]>({ queryKey: marketKeys.favoritesAll }, (old) => old?.filter((q) => q.symbol !== symbol));
}

/**
 * Appends a just-added favourite to the cached lists it belongs to, from the detail quote in the
 * cache (the command answers only the symbol), so the screens show it without waiting for a read.
 */
export function addCached(client: QueryClient, symbol: string) {
  const detail = client.getQueryData<QuoteDetail>(marketKeys.quote(symbol));
  if (!detail) return;
  const { session: _, ...rest } = detail;
  // Lists carry no best five.
  const quote: Quote = { ...rest, bids: [], asks: [] };
  for (const [key, list] of client.getQueriesData<Quote[]>({ queryKey: marketKeys.favoritesAll })) {
    const type = key[2];
    if (!list || (type !== 'all' && type !== quote.market) || list.some((q) => q.symbol === symbol)) continue;
    client.setQueryData<Quote[]>(key, [...list, quote]);
  }
}

/**
 * Adds or removes favourites. The cached lists change at once from the command's answer; the
 * refetch that follows carries the answer's position (Lotbook-Position), so it cannot bring back
 * the list as it was before the change.
 */
export function useFavoriteActions() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: marketKeys.favoritesAll });
  const add = useAction((symbol: string, key) => marketApi.addFavorite(symbol, key), {
    onSuccess: (_, symbol) => {
      addCached(client, symbol);
      toast.show(t('market.favoriteAdded'));
      return refresh();
    },
  });
  const remove = useAction((symbol: string, key) => marketApi.removeFavorite(symbol, key), {
    onSuccess: (_, symbol) => {
      dropCached(client, symbol);
      toast.show(t('market.favoriteRemoved'));
      return refresh();
    },
  });
  return { add, remove };
}

/** Whether the symbol is a favourite, and a toggle. */
export function useFavorite(symbol: string) {
  const favs = useFavorites('all');
  const { add, remove } = useFavoriteActions();
  const on = favs.data?.some((q) => q.symbol === symbol) ?? false;
  return {
    on,
    known: favs.data !== undefined,
    pending: add.pending || remove.pending,
    toggle: () => (on ? remove.run(symbol) : add.run(symbol)),
  };
}
