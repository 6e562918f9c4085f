import { useTranslation } from 'react-i18next';
import { LIST_TABS, type ListTab } from '@/domain/market/types';

/**
 * All / gainers / losers / volume above a market list: plain buttons, not the kit's Tabs, whose
 * active line is placed by reading the layout in a layout effect (a forced layout of the whole
 * list on the market's first render, the longest part of it on a cold start).
 */
export function ListTabs({ value, onChange, testPrefix }: { value: ListTab; onChange: (t: ListTab) => void; testPrefix: string }) {
  const { t } = useTranslation();
  return (
    <div className="list-tabs" role="tablist">
      {LIST_TABS.map((k) => (
        <button key={k} type="button" role="tab" aria-selected={k === value} className={k === value ? 'list-tab active' : 'list-tab'} onClick={() => onChange(k)}>
          <span data-testid={`${testPrefix}-tab-${k}`}>{t(`market.tabs.${k}`)}</span>
        </button>
      ))}
    </div>
  );
}
