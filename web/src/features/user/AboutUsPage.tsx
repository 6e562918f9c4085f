import { useTranslation } from 'react-i18next';
import { BrandLogo } from '@/components/BrandLogo';
import { Page } from '@/components/Page';
import { useAppConfig } from '@/lib/config';
import { useSiteText } from '@/lib/siteTexts';

export default function AboutUsPage() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const body = useSiteText('about') ?? t('about.body', { returnObjects: true });
  return (
    <Page title={t('about.title')} testId="about-page">
      <div className="card prose">
        <div className="about-brand">
          <BrandLogo className="home-logo" />
          <strong>{config.data?.title || t('common.appName')}</strong>
        </div>
        <div data-testid="about-body">
          {body.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </div>
        <p className="muted">
          {t('common.version')} {__APP_VERSION__}
        </p>
      </div>
    </Page>
  );
}
