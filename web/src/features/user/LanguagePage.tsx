import { CheckList } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Page } from '@/components/Page';
import { type AppLang, currentLang, setLanguage } from '@/lib/i18n';

const LANGS: AppLang[] = ['tw', 'en'];

export default function LanguagePage() {
  const { t } = useTranslation();
  const lang = currentLang();
  return (
    <Page title={t('language.title')} testId="language-page">
      <CheckList
        mode="card"
        value={[lang]}
        onChange={(v) => {
          const next = v[0] as AppLang | undefined;
          if (next && next !== lang) void setLanguage(next);
        }}
      >
        {LANGS.map((l) => (
          <CheckList.Item key={l} value={l} data-testid={`lang-${l}`}>
            {t(`language.${l}`)}
          </CheckList.Item>
        ))}
      </CheckList>
    </Page>
  );
}
