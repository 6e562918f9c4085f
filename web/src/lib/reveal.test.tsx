import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { revealIfCut } from './reveal';
import { toast } from './toast';

function cutTo(el: HTMLElement, scrollWidth: number, clientWidth: number) {
  Object.defineProperty(el, 'scrollWidth', { configurable: true, value: scrollWidth });
  Object.defineProperty(el, 'clientWidth', { configurable: true, value: clientWidth });
}

describe('revealIfCut', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows a cut name whole and keeps the tap from the link around it', () => {
    const show = vi.spyOn(toast, 'show').mockImplementation(() => {});
    const outer = vi.fn();
    render(
      <div onClick={outer}>
        <span data-testid="name" onClick={revealIfCut('Taiwan Semiconductor Manufacturing')}>
          Taiwan Semiconductor Manufacturing
        </span>
      </div>,
    );
    const name = screen.getByTestId('name');
    cutTo(name, 300, 180);
    fireEvent.click(name);
    expect(show).toHaveBeenCalledWith('Taiwan Semiconductor Manufacturing');
    expect(outer).not.toHaveBeenCalled();
  });

  it('lets a tap on a name that fits through', () => {
    const show = vi.spyOn(toast, 'show').mockImplementation(() => {});
    const outer = vi.fn();
    render(
      <div onClick={outer}>
        <span data-testid="name" onClick={revealIfCut('Asia Cement')}>
          Asia Cement
        </span>
      </div>,
    );
    const name = screen.getByTestId('name');
    cutTo(name, 90, 90);
    fireEvent.click(name);
    expect(show).not.toHaveBeenCalled();
    expect(outer).toHaveBeenCalled();
  });
});
