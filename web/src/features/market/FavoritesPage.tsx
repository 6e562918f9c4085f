import { Button } from 'antd-mobile';
import { MinusCircleOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { QuoteHead, QuoteRow } from '@/components/market/QuoteRow';
import { LiveNotice } from '@/components/market/LiveNotice';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { useFavorites } from '@/domain/market/api';
import { useLiveQuotes } from '@/domain/market/live';
import type { FavoriteType } from '@/domain/market/types';
import { useFavoriteActions } from './useFavorite';
import './market-pages.css';

const TYPES = ['all', 'listed', 'otc'] as const satisfies readonly FavoriteType[];

/** The member's favourites, live; edit mode removes them. */
export default function FavoritesPage() {
  const { t } = useTranslation();
  const [type, setType] = useState<FavoriteType>('all');
  const [editing, setEditing] = useState(false);
  const q = useFavorites(type);
  const { remove } = useFavoriteActions();
  const items = q.data ?? [];
  useLiveQuotes(items.map((i) => i.symbol));
  const edit = (
    <span role="button" className="bar-action" data-testid="favo-edit" data-editing={editing ? 'true' : 'false'} onClick={() => setEditing((e) => !e)}>
      {t(editing ? 'market.done' : 'market.edit')}
    </span>
  );
  return (
    <Page title={t('market.favoTitle')} testId="favo-page" right={items.length > 0 || editing ? edit : null} className="flush-page">
      <LiveNotice />
      <div className="mkt-switch favo-types" role="tablist">
        {TYPES.map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={k === type}
            className={k === type ? 'mkt-switch-item active' : 'mkt-switch-item'}
            data-testid={`favo-type-${k}`}
            onClick={() => setType(k)}
          >
            {t(k === 'all' ? 'market.tabs.all' : `market.${k}`)}
          </button>
        ))}
      </div>
      <PullRefresh onRefresh={() => q.refetch()}>
        <div className="quote-list" data-testid="favo-list">
          <QuoteHead />
          {q.isLoading ? (
            <ListLoading />
          ) : items.length === 0 ? (
            <div className="favo-empty">
              <ListEmpty text={t('market.favoEmpty')} />
              <AppLink to="/market/market" data-testid="favo-go-market">
                <Button color="primary" fill="outline" size="small">
                  {t('market.goMarket')}
                </Button>
              </AppLink>
            </div>
          ) : (
            items.map((s) => (
              <QuoteRow
                key={s.symbol}
                q={s}
                testId="favo-row"
                link={!editing}
                action={
                  editing ? (
                    <button
                      type="button"
                      className="favo-remove"
                      aria-label={t('market.remove')}
                      data-testid={`favo-remove-${s.symbol}`}
                      disabled={remove.pending}
                      onClick={() => remove.run(s.symbol)}
                    >
                      <MinusCircleOutline />
                    </button>
                  ) : null
                }
              />
            ))
          )}
        </div>
      </PullRefresh>
    </Page>
  );
}
