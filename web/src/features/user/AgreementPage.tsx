import { useTranslation } from 'react-i18next';
import { Page } from '@/components/Page';
import { useSiteText } from '@/lib/siteTexts';

/** The user agreement and the privacy policy: ops' texts when they wrote them, else the app's own. */
export default function AgreementPage() {
  const { t } = useTranslation();
  const agreement = useSiteText('agreement');
  const privacy = useSiteText('privacy');
  const body = agreement ?? (privacy ? [] : t('agreement.body', { returnObjects: true }));
  return (
    <Page title={t('agreement.title')} testId="agreement-page">
      <div className="card prose" data-testid="agreement-body">
        {body.map((p) => (
          <p key={p}>{p}</p>
        ))}
        {privacy?.map((p) => (
          <p key={`privacy-${p}`}>{p}</p>
        ))}
      </div>
    </Page>
  );
}
