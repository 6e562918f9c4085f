import { useTradeT } from '@/domain/trade/texts';
import { sizeOf } from './ticket';

/** One label and its figure on a trade card. */
export function Kv({ label, value, cls = '', testId }: { label: string; value: string; cls?: string; testId?: string }) {
  return (
    <div className="kv">
      <span>{label}</span>
      <span className={`num ${cls}`} data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

/** A security's name (the e2e tests find it by quote-name) and its code, as a card's heading. */
export function SecurityName({ name, symbol }: { name: string; symbol: string }) {
  return (
    <span>
      <span data-testid="quote-name">{name}</span> <span className="muted num">{symbol}</span>
    </span>
  );
}

/** A quantity in 張 or 股, whichever states it exactly. */
export function QtyKv({ shares }: { shares: number }) {
  const t = useTradeT();
  const size = sizeOf(shares);
  return <Kv label={t('pos.qty')} value={`${size.n} ${t(size.unit)}`} />;
}
