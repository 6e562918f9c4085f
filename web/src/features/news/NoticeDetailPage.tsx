import { NewsDetail } from './NewsDetail';

/** One notice (/home/noticeDetail?id=). */
export default function NoticeDetailPage() {
  return <NewsDetail kind="notice" />;
}
