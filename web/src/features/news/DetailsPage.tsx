import { NewsDetail } from './NewsDetail';

/** One article (/home/DetailsPage?id=). */
export default function DetailsPage() {
  return <NewsDetail kind="article" />;
}
