import { Page } from '@/components/Page';
import { ChatThread } from './ChatThread';
import { useChatT } from './texts';

/** The member's conversation with customer service. */
export default function ChatPage() {
  const t = useChatT();
  return (
    <Page title={t('title')} testId="chat-page" className="chat-page">
      <ChatThread who={{ own: true }} mySide="member" />
    </Page>
  );
}
