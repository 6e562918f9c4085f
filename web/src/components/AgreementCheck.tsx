import { useTranslation } from 'react-i18next';
import { AppLink } from './AppLink';

/** The privacy agreement box that login and registration require. */
export function AgreementCheck({ checked, onChange, testId }: { checked: boolean; onChange: (v: boolean) => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <label className="agree">
      <input type="checkbox" data-testid={testId} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>
        {t('auth.agreePrefix')}
        <AppLink to="/user/agreement" data-testid="agreement-link">
          {t('auth.agreementLink')}
        </AppLink>
      </span>
    </label>
  );
}
