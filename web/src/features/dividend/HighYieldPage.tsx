import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { displayName } from '@/domain/market/format';
import { money } from '@/lib/filters';
import { currentLang } from '@/lib/i18n';
import { useHighYield } from './api';
import { frequencyKey } from './format';
import { DividendNav, Row } from './parts';
import { useDividendT } from './texts';
import './dividend.css';

/** /common/dividend2: the highest cash yields over the last twelve months at today's prices. */
export default function HighYieldPage() {
  const dt = useDividendT();
  const q = useHighYield();
  return (
    <Page title={dt('highYield')} testId="dividend-high-page">
      <DividendNav here="/common/dividend2" />
      <PullRefresh onRefresh={() => q.refetch()}>
        <div className="record-list" data-testid="dividend-high">
          {q.isPending ? (
            <ListLoading />
          ) : !q.data || q.data.length === 0 ? (
            <ListEmpty text={dt('empty')} />
          ) : (
            q.data.map((y, i) => (
              <div className="record" key={y.symbol} data-testid="dividend-high-item" data-symbol={y.symbol}>
                <div className="record-row">
                  <AppLink to={`/common/dividendInfo?code=${encodeURIComponent(y.symbol)}`} className="record-amount">
                    <span className="muted num">{i + 1}.</span> <span data-testid="quote-name">{displayName(y, currentLang())}</span> <span className="num">{y.symbol}</span>
                  </AppLink>
                  <span className="dividend-yield num" data-testid="dividend-high-yield">
                    {y.yield}%
                  </span>
                </div>
                <Row label={dt('price')}>{money(y.price)}</Row>
                <Row label={dt('trailing')}>{dt('perShare', { v: y.trailingCash })}</Row>
                <Row label={dt('frequencyLabel')}>{dt(frequencyKey(y.frequency))}</Row>
                {y.nextExDate ? <Row label={dt('exDate')}>{y.nextExDate}</Row> : null}
              </div>
            ))
          )}
        </div>
      </PullRefresh>
    </Page>
  );
}
