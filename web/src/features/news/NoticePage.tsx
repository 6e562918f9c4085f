import { Page } from '@/components/Page';
import { useNewsT } from '@/domain/news/texts';
import { NewsList } from './NewsList';

/** The notices (/home/notice). */
export default function NoticePage() {
  const t = useNewsT();
  return (
    <Page title={t('noticesTitle')} testId="notice-page">
      <NewsList kind="notice" />
    </Page>
  );
}
