import type { MouseEvent } from 'react';
import { toast } from './toast';

/**
 * A tap handler for text cut with an ellipsis (a long stock name at 375 px): shows the text whole
 * in a toast and keeps the tap from reaching a link around it. Text that fits ignores the tap.
 */
export function revealIfCut(text: string) {
  return (e: MouseEvent<HTMLElement>) => {
    const el = e.currentTarget;
    if (el.scrollWidth <= el.clientWidth) return;
    e.preventDefault();
    e.stopPropagation();
    toast.show(text);
  };
}
