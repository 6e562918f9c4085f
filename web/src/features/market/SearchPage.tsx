import { CloseCircleFill, DeleteOutline, SearchOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { LiveNotice } from '@/components/market/LiveNotice';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { detailPath, QuoteRow } from '@/components/market/QuoteRow';
import { currentLang } from '@/lib/i18n';
import { useHot, useSearch } from '@/domain/market/api';
import { displayName } from '@/domain/market/format';
import { useLiveQuotes } from '@/domain/market/live';
import { useBack } from '@/lib/nav';
import { loadHistory, saveHistory, withTerm } from './history';
import { useDebounced } from './useDebounced';
import './market-pages.css';

export const SEARCH_DEBOUNCE_MS = 300;

/** Search by code or name (Chinese or English), debounced; history on the device. */
export default function SearchPage() {
  const { t } = useTranslation();
  const back = useBack();
  const [text, setText] = useState('');
  const [history, setHistory] = useState(loadHistory);
  const term = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const results = useSearch(term);
  const hot = useHot('listed');
  const items = term ? (results.data ?? []) : [];
  useLiveQuotes(items.map((i) => i.symbol));

  const remember = (value: string) => {
    const next = withTerm(history, value);
    setHistory(next);
    saveHistory(next);
  };
  const clear = () => {
    setHistory([]);
    saveHistory([]);
  };

  return (
    <div className="page search-page" data-testid="search-page">
      <LiveNotice />
      <form
        className="search-bar"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          remember(text);
        }}
      >
        <label className="search-box">
          <SearchOutline className="search-icon" />
          <input
            className="search-input"
            type="search"
            enterKeyHint="search"
            autoFocus
            value={text}
            placeholder={t('market.searchPlaceholder')}
            onChange={(e) => setText(e.target.value)}
            data-testid="search-input"
          />
          {text ? (
            <button type="button" className="search-clear" aria-label={t('market.clearInput')} onClick={() => setText('')}>
              <CloseCircleFill />
            </button>
          ) : null}
        </label>
        <button type="button" className="search-cancel" onClick={back} data-testid="search-cancel">
          {t('common.cancel')}
        </button>
      </form>
      {term ? (
        <div className={results.isPlaceholderData ? 'quote-list stale' : 'quote-list'} data-testid="search-results" data-term={results.isPlaceholderData ? '' : term}>
          {results.isPending ? (
            <ListLoading />
          ) : items.length === 0 ? (
            <ListEmpty text={t('market.noResults')} testId="search-empty" />
          ) : (
            items.map((s) => <QuoteRow key={s.symbol} q={s} testId="search-result" onOpen={() => remember(text)} />)
          )}
        </div>
      ) : (
        <div className="page-body">
          {history.length > 0 ? (
            <div className="card" data-testid="search-history">
              <div className="section-row">
                <span className="section-title">{t('market.history')}</span>
                <button type="button" className="link-button muted" onClick={clear} data-testid="history-clear">
                  <DeleteOutline /> {t('market.clearHistory')}
                </button>
              </div>
              <div className="chips">
                {history.map((h) => (
                  <button key={h} type="button" className="chip" data-testid="history-item" onClick={() => setText(h)}>
                    {h}
                  </button>
                ))}
              </div>
            </div>
          ) : null}
          <div className="card">
            <div className="section-title">{t('market.hotSearch')}</div>
            <div className="chips">
              {(hot.data ?? []).slice(0, 10).map((s) => (
                <AppLink key={s.symbol} to={detailPath(s.symbol)} className="chip" data-testid="hot-chip">
                  <span data-testid="quote-name">{displayName(s, currentLang())}</span> <span className="muted num">{s.symbol}</span>
                </AppLink>
              ))}
            </div>
            <div className="muted search-hint">{t('market.searchHint')}</div>
          </div>
        </div>
      )}
    </div>
  );
}
