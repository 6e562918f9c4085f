import { NavBar } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useBack } from '@/lib/nav';

/** A screen with a top bar and back arrow; the page itself scrolls (for scroll restoration). */
export function Page(props: { title: ReactNode; children: ReactNode; right?: ReactNode; back?: boolean; testId?: string; className?: string }) {
  const back = useBack();
  return (
    <div className={['page', props.className].filter(Boolean).join(' ')} data-testid={props.testId}>
      <NavBar className="page-bar" back={props.back === false ? null : ''} backIcon={props.back !== false} onBack={back} right={props.right}>
        {props.title}
      </NavBar>
      <div className="page-body">{props.children}</div>
    </div>
  );
}
