import { useTranslation } from 'react-i18next';
import { Page } from '@/components/Page';

export default function AgreementPage() {
  const { t } = useTranslation();
  const body = t('agreement.body', { returnObjects: true });
  return (
    <Page title={t('agreement.title')} testId="agreement-page">
      <div className="card prose">
        {body.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </div>
    </Page>
  );
}
