import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useAction } from '@/lib/action';
import { api, type BodyOf } from '@/lib/api/client';
import type { SiteText } from '@/lib/siteTexts';
import { toast } from '@/lib/toast';
import { ConsoleNav } from './ConsoleNav';
import './console.css';

function TextEditor({ text }: { text: SiteText }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [value, setValue] = useState(text.text);
  const save = useAction((body: BodyOf<'/api/vue/ops/texts'>, key) => api.post('/api/vue/ops/texts', body, { idempotencyKey: key }), {
    onSuccess: () => {
      toast.show(t('console.saved'));
      void qc.invalidateQueries({ queryKey: ['console', 'texts'] });
      void qc.invalidateQueries({ queryKey: ['siteTexts'] });
    },
  });
  const id = `${text.name}-${text.lang}`;
  return (
    <div className="card console-form" data-testid={`text-${id}`}>
      <label htmlFor={`text-${id}-input`}>
        <strong>
          {t(`console.textName.${text.name}`)} · {t(`console.lang.${text.lang}`)}
        </strong>
      </label>
      <textarea
        id={`text-${id}-input`}
        className="console-text"
        value={value}
        maxLength={20000}
        onChange={(e) => setValue(e.target.value)}
        data-testid={`text-${id}-input`}
      />
      <Button size="small" color="primary" loading={save.pending} onClick={() => save.run({ name: text.name, lang: text.lang, text: value })} data-testid={`text-${id}-save`}>
        {t('console.save')}
      </Button>
    </div>
  );
}

/** Ops write the texts members read, in both languages: about us, agreement, privacy, fees prose. */
export default function TextsPage() {
  const { t } = useTranslation();
  const texts = useQuery({ queryKey: ['console', 'texts'] as const, queryFn: ({ signal }) => api.get('/api/vue/ops/texts', { signal }) });
  return (
    <Page title={t('console.texts')} testId="ops-texts-page">
      <ConsoleNav />
      <p className="muted">{t('console.textHint')}</p>
      {texts.isPending ? <ListLoading /> : (texts.data ?? []).map((x) => <TextEditor key={`${x.name}-${x.lang}`} text={x} />)}
    </Page>
  );
}
