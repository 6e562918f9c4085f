import { DotLoading, ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

/** The loading and empty states every list shows, with fixed heights so nothing jumps. */
export function ListLoading({ testId = 'list-loading' }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="list-state" data-testid={testId}>
      <DotLoading color="primary" />
      <span>{t('common.loading')}</span>
    </div>
  );
}

export function ListEmpty({ text, testId = 'list-empty' }: { text?: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="list-state" data-testid={testId}>
      <ErrorBlock status="empty" title={text ?? t('common.empty')} description="" />
    </div>
  );
}
