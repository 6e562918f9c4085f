import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { declareTicketExtra, type TicketExtraProps, ticketExtras, useTicketExtras } from './ticketExtras';

function Pick({ value, onChange }: TicketExtraProps) {
  return <input data-testid="pick" value={value} onChange={(e) => onChange(e.target.value)} />;
}

describe('ticket extras', () => {
  it('renders the declared pickers and hands the choice to afterPlace once the order is placed', async () => {
    const after = vi.fn(() => Promise.resolve());
    declareTicketExtra({ key: 'test', Picker: Pick, afterPlace: after });
    declareTicketExtra({ key: 'test', Picker: Pick, afterPlace: after }); // once per key
    expect(ticketExtras().filter((x) => x.key === 'test')).toHaveLength(1);
    let place: (orderNo: string) => Promise<void> = () => Promise.resolve();
    function Ticket() {
      const x = useTicketExtras();
      place = x.afterPlace;
      return <div>{x.nodes}</div>;
    }
    render(<Ticket />);
    await act(() => place('T1')); // nothing chosen: nothing sent
    expect(after).not.toHaveBeenCalled();
    fireEvent.change(await screen.findByTestId('pick'), { target: { value: 'c1' } });
    await act(() => place('T2'));
    expect(after).toHaveBeenCalledWith('T2', 'c1');
  });

  it('keeps the order placed when an extra fails', async () => {
    declareTicketExtra({ key: 'failing', Picker: Pick, afterPlace: () => Promise.reject(new Error('refused')) });
    let place: (orderNo: string) => Promise<void> = () => Promise.resolve();
    function Ticket() {
      const x = useTicketExtras();
      place = x.afterPlace;
      return <div>{x.nodes}</div>;
    }
    render(<Ticket />);
    for (const el of await screen.findAllByTestId('pick')) fireEvent.change(el, { target: { value: 'x' } });
    await expect(act(() => place('T3'))).resolves.toBeUndefined();
  });
});
