import { useTranslation } from 'react-i18next';
import { MARKETS, type MarketKind } from '@/domain/market/types';

/** Listed (上市) / OTC (上櫃) switch. */
export function MarketSwitch({ value, onChange, testPrefix = 'market' }: { value: MarketKind; onChange: (m: MarketKind) => void; testPrefix?: string }) {
  const { t } = useTranslation();
  return (
    <div className="mkt-switch" role="tablist">
      {MARKETS.map((m) => (
        <button
          key={m}
          type="button"
          role="tab"
          aria-selected={m === value}
          className={m === value ? 'mkt-switch-item active' : 'mkt-switch-item'}
          data-testid={`${testPrefix}-${m}`}
          onClick={() => onChange(m)}
        >
          {t(`market.${m}`)}
        </button>
      ))}
    </div>
  );
}
