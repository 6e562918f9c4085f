import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { Page } from '@/components/Page';
import { useAction } from '@/lib/action';
import { api } from '@/lib/api/client';
import { chatKeys } from './api';
import { ChatThread } from './ChatThread';
import { useChatT } from './texts';

/** One member's conversation as ops answer it; any ops user may answer and close it. */
export default function OpsChatPage() {
  const t = useChatT();
  const { t: common } = useTranslation();
  const account = useParams().account ?? '';
  const qc = useQueryClient();
  const close = useAction((_: void, key: string) => api.post('/api/vue/ops/chats/{account}/close', {}, { params: { account }, idempotencyKey: key }), {
    onSuccess: () => void qc.invalidateQueries({ queryKey: chatKeys.all }),
  });
  const right = (
    <Button
      size="mini"
      fill="outline"
      data-testid="ops-chat-close"
      loading={close.pending}
      onClick={() =>
        void Dialog.confirm({ content: t('closeConfirm'), confirmText: t('close'), cancelText: common('common.cancel'), onConfirm: () => close.run() })
      }
    >
      {t('close')}
    </Button>
  );
  return (
    <Page title={account} right={right} testId="ops-chat-page" className="chat-page">
      <ChatThread key={account} who={{ own: false, account }} mySide="ops" />
    </Page>
  );
}
