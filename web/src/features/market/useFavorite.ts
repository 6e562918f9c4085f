import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAction } from '@/lib/action';
import { marketApi, marketKeys, useFavorites } from '@/lib/market/api';
import type { Quote } from '@/lib/market/types';
import { toast } from '@/lib/toast';

/** Removes a symbol from every cached favourites list (all, listed, otc). */
function dropCached(client: ReturnType<typeof useQueryClient>, symbol: string) {
  client.setQueriesData<Quote[]>({ queryKey: marketKeys.favoritesAll }, (old) => old?.filter((q) => q.symbol !== symbol));
}

/** Adds or removes favourites; the lists are refetched after each change. */
export function useFavoriteActions() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: marketKeys.favoritesAll });
  const add = useAction((symbol: string, key) => marketApi.addFavorite(symbol, key), {
    onSuccess: () => {
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
