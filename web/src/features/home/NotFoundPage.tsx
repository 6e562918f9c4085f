import { Button, ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="page" data-testid="not-found">
      <ErrorBlock status="empty" title={t('notFound.title')} description="" fullPage />
      <div className="page-body">
        <Button block color="primary" onClick={() => void navigate('/home/index', { replace: true })}>
          {t('notFound.home')}
        </Button>
      </div>
    </div>
  );
}
