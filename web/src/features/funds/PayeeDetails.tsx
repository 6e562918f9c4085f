import { useTranslation } from 'react-i18next';
import type { Channel } from './api';

/** Where the member sends the money: the channel's payee bank, branch, account and holder. */
export function PayeeDetails({ payee }: { payee: Channel['payee'] }) {
  const { t } = useTranslation();
  if (!payee.bank && !payee.account) return null;
  const rows = [
    ['bank', t('funds.payeeBank'), payee.bank],
    ['branch', t('funds.payeeBranch'), payee.branch],
    ['account', t('funds.payeeAccount'), payee.account],
    ['name', t('funds.payeeName'), payee.name],
  ].filter(([, , v]) => v);
  return (
    <section className="card payee" data-testid="payee" aria-label={t('funds.payeeTitle')}>
      <strong>{t('funds.payeeTitle')}</strong>
      {rows.map(([id, label, value]) => (
        <div className="kv" key={id}>
          <span>{label}</span>
          <span className={id === 'account' ? 'num' : undefined} data-testid={`payee-${id}`}>
            {value}
          </span>
        </div>
      ))}
      <div className="muted">{t('funds.payeeHint')}</div>
    </section>
  );
}
