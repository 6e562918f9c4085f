import { useTranslation } from 'react-i18next';
import { channelName } from '@/domain/wallet/channels';
import { money } from '@/lib/filters';
import type { Channel } from './api';
import { formatWeekdays } from './validation';

/** A channel's rules as the member sees them: min, max, window, open now. */
export function ChannelRules({ ch }: { ch: Channel }) {
  const { t } = useTranslation();
  const names = t('weekdays', { returnObjects: true });
  const open = ch.openNow || ch.window.alwaysOpen;
  const hours = t('funds.weekdaysRange', { days: formatWeekdays(ch.window.weekdays, names, t('funds.daySeparator')), open: ch.window.open, close: ch.window.close });
  const windowText = ch.window.alwaysOpen ? t('funds.alwaysOpen') : ch.window.closedOnHolidays ? t('funds.withHolidays', { value: hours }) : hours;
  return (
    <>
      <div className="record-row">
        <strong data-testid="channel-name">{channelName(t, ch.name, ch.id)}</strong>
        <span className={`badge ${open ? 'badge-approved' : 'badge-unverified'}`} data-testid="channel-open" data-open={open}>
          {t(open ? 'funds.openNow' : 'funds.closedNow')}
        </span>
      </div>
      <div className="channel-rules">
        <div data-testid="channel-limits">
          {t('funds.limits', { min: `${ch.currency} ${money(ch.min)}`, max: money(ch.max) })}
        </div>
        <div data-testid="channel-window">{t('funds.window', { value: windowText })}</div>
      </div>
    </>
  );
}
