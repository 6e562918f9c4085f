import { useTranslation } from 'react-i18next';
import { BrandLogo } from '@/components/BrandLogo';
import { Page } from '@/components/Page';
import { useAppConfig } from '@/lib/config';

export default function AboutUsPage() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const body = t('about.body', { returnObjects: true });
  return (
    <Page title={t('about.title')} testId="about-page">
      <div className="card prose">
        <div className="about-brand">
          <BrandLogo className="home-logo" />
          <strong>{config.data?.title || t('common.appName')}</strong>
        </div>
        {body.map((p) => (
          <p key={p}>{p}</p>
        ))}
        <p className="muted">
          {t('common.version')} {__APP_VERSION__}
        </p>
      </div>
    </Page>
  );
}
