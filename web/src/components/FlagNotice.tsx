import { useTranslation } from 'react-i18next';
import { useUserInfo } from '@/lib/user';

/** The message of each flag ops set on the account (the refusal the member would meet). */
const FLAG_MESSAGE: Record<string, string> = {
  frozen: 'msg.account_frozen',
  trade_banned: 'msg.trade_banned',
  withdrawal_banned: 'msg.withdrawal_banned',
  disabled: 'msg.account_disabled',
};

/** What ops' flags on the member's account mean for them, one line each; nothing when none. */
export function FlagNotice() {
  const { t } = useTranslation();
  const flags = (useUserInfo().data?.flags ?? []).filter((f) => FLAG_MESSAGE[f]);
  if (flags.length === 0) return null;
  return (
    <div className="card flag-notice" role="status" data-testid="flag-notice">
      {flags.map((f) => (
        <div key={f} data-testid={`flag-notice-${f}`}>
          {t(FLAG_MESSAGE[f] as 'msg.trade_banned')}
        </div>
      ))}
    </div>
  );
}
