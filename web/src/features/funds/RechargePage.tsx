import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useChannels } from './api';
import { ChannelRules } from './ChannelRules';

/** Deposit: the channel list with each channel's rules. */
export default function RechargePage() {
  const { t } = useTranslation();
  const channels = useChannels();
  return (
    <Page title={t('funds.rechargeTitle')} testId="recharge-page">
      <div className="section-title">{t('funds.chooseChannel')}</div>
      {channels.isPending ? (
        <ListLoading />
      ) : !channels.data?.length ? (
        <ListEmpty text={t('funds.noChannels')} />
      ) : (
        channels.data.map((ch) => (
          <AppLink
            key={ch.id}
            to={`/user/rechargeChannel?id=${encodeURIComponent(ch.id)}`}
            className={ch.openNow || ch.window.alwaysOpen ? 'channel' : 'channel closed'}
            data-testid={`channel-${ch.id}`}
          >
            <ChannelRules ch={ch} />
          </AppLink>
        ))
      )}
    </Page>
  );
}
