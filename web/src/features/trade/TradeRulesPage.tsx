import { ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useSiteText } from '@/lib/siteTexts';
import { useTradeRules } from './api';
import { scaled, unscaled } from './rules';
import { useTradeT, type TradeKey } from '@/domain/trade/texts';
import './trade.css';

/** A rate as a percent: 0.001425 → 0.1425 %. */
const pct = (v: string) => `${unscaled(scaled(v, 6) ?? 0n, 4).replace(/\.?0+$/, '')} %`;

/** The broker's published trading rules, as GET /api/vue/trade/rules sends them. */
export default function TradeRulesPage() {
  const t = useTradeT();
  const r = useTradeRules().data;
  // Ops' prose around the table; the numbers are always the engine's.
  const prose = useSiteText('fees');
  const rows: [TradeKey, string, string][] = r
    ? [
        ['rulesPage.commission', 'commissionRate', pct(r.commissionRate)],
        ['rulesPage.minBoard', 'minCommissionBoardLot', `NT$${r.minCommissionBoardLot}`],
        ['rulesPage.minOdd', 'minCommissionOddLot', `NT$${r.minCommissionOddLot}`],
        ['rulesPage.stockTax', 'stockTaxRate', pct(r.stockTaxRate)],
        ['rulesPage.etfTax', 'etfTaxRate', pct(r.etfTaxRate)],
        ['rulesPage.bondEtfTax', 'bondEtfTaxRate', pct(r.bondEtfTaxRate)],
        ['rulesPage.dayTradeTax', 'dayTradeTaxRate', pct(r.dayTradeTaxRate)],
        ['rulesPage.maxFinancing', 'maxFinancing', pct(r.maxFinancing)],
        ['rulesPage.minShortMargin', 'minShortMargin', pct(r.minShortMargin)],
        ['rulesPage.maintenance', 'maintenanceRatio', pct(r.maintenanceRatio)],
        ['rulesPage.forced', 'forcedCloseRatio', pct(r.forcedCloseRatio)],
        ['rulesPage.callDays', 'callDeadlineDays', String(r.callDeadlineDays)],
        ['rulesPage.settlement', 'settlementDays', `T+${r.settlementDays}`],
        ['rulesPage.lock', 'lockMinutes', String(r.lockMinutes)],
        ['rulesPage.hold', 'holdDays', String(r.holdDays)],
        ['rulesPage.boardLot', 'boardLot', String(r.boardLot)],
        ['rulesPage.maxLots', 'maxLots', String(r.maxLots)],
      ]
    : [];
  return (
    <Page title={t('rules')} testId="trade-rules-page">
      {!r ? (
        <ListLoading />
      ) : (
        <div className="card">
          {prose ? (
            <div className="prose" data-testid="fees-prose">
              {prose.map((p) => (
                <p key={p}>{p}</p>
              ))}
            </div>
          ) : null}
          {rows.map(([label, id, value]) => (
            <div className="kv" key={id}>
              <span>{t(label)}</span>
              <span className="num" data-testid={`rule-${id}`}>
                {value}
              </span>
            </div>
          ))}
          <div className="prose" data-testid="rules-day-trade">
            <p>
              <strong>{t('rulesPage.dayTrade.title')}</strong>
            </p>
            {(['ways', 'disposed', 'sellFirst', 'tax', 'close'] as const).map((k) => (
              <p key={k} data-testid={`rules-day-trade-${k}`}>
                {t(`rulesPage.dayTrade.${k}`, { pct: pct(r.dayTradeTaxRate) })}
              </p>
            ))}
          </div>
        </div>
      )}
    </Page>
  );
}
