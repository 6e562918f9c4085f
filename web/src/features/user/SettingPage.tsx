import { Button, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Page } from '@/components/Page';
import { currentLang } from '@/lib/i18n';
import { useLogout } from './useLogout';

export default function SettingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logout = useLogout();
  const go = (to: string) => () => void navigate(to);
  return (
    <Page title={t('setting.title')} testId="setting-page">
      <List mode="card" className="menu">
        <List.Item onClick={go('/user/loginPassword')} data-testid="setting-login-password">
          {t('user.loginPassword')}
        </List.Item>
        <List.Item onClick={go('/user/setPassword')} data-testid="setting-fund-password">
          {t('user.fundPassword')}
        </List.Item>
        <List.Item onClick={go('/user/language')} extra={t(`language.${currentLang()}`)} data-testid="setting-language">
          {t('user.language')}
        </List.Item>
        <List.Item onClick={go('/user/agreement')} data-testid="setting-agreement">
          {t('user.agreement')}
        </List.Item>
        <List.Item onClick={go('/user/aboutUs')} data-testid="setting-about">
          {t('user.aboutUs')}
        </List.Item>
        <List.Item extra={__APP_VERSION__}>{t('common.version')}</List.Item>
      </List>
      <Button block shape="rounded" className="logout-btn" data-testid="setting-logout" onClick={logout}>
        {t('user.logout')}
      </Button>
    </Page>
  );
}
