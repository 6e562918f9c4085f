import { useTranslation } from 'react-i18next';
import { useSocketStatus } from '@/domain/market/live';
import './market.css';

/** A thin notice while the socket is down and waiting to reconnect: prices shown may be stale. */
export function LiveNotice() {
  const { t } = useTranslation();
  const status = useSocketStatus();
  if (status !== 'waiting') return null;
  return (
    <div className="live-notice" role="status" data-testid="live-reconnecting">
      {t('market.reconnecting')}
    </div>
  );
}
