import { Page } from '@/components/Page';
import { useBlockT } from './texts';
import './block.css';

const RULES = ['hours', 'size', 'limits', 'review', 'password', 'simulated'] as const;

/** The rules of block trades as the server applies them: hours, block size, limits, review, password lockout. */
export default function BlockRulesPage() {
  const bt = useBlockT();
  return (
    <Page title={bt('rules.title')} testId="block-rules-page">
      <div className="card block-rules">
        {RULES.map((k) => (
          <p key={k} data-testid={`block-rule-${k}`}>
            {bt(`rules.${k}`)}
          </p>
        ))}
      </div>
    </Page>
  );
}
