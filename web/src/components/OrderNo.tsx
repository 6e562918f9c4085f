import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { middleEllipsis } from '@/lib/filters';

/**
 * An order number where the line is narrow (the ops deposit card beside its proof image): past 20
 * characters its first 6 and last 6 joined by dots, the whole number in the title and on a tap.
 */
export function OrderNo({ value, testId }: { value: string; testId?: string }) {
  const { t } = useTranslation();
  const [whole, setWhole] = useState(false);
  const short = middleEllipsis(value);
  if (short === value) {
    return (
      <span className="num" data-testid={testId}>
        {value}
      </span>
    );
  }
  return (
    <span
      role="button"
      tabIndex={0}
      className="num order-no"
      title={value}
      aria-label={whole ? value : t('funds.showFullOrderNo')}
      aria-expanded={whole}
      data-testid={testId}
      onClick={() => setWhole((w) => !w)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') setWhole((w) => !w);
      }}
    >
      {whole ? value : short}
    </span>
  );
}
