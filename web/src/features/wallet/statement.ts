import type { Statement } from './api';

// The monthly statement's pure parts: Taipei months and the CSV export. The CSV is built in the
// browser from the statement the server answered (GET /api/vue/user/statement, the member's own
// account only): UTF-8 with a byte-order mark so that Excel reads the Chinese, CRLF lines
// (RFC 4180), every field quoted when it needs to be, and text that a spreadsheet would take for
// a formula defused with a leading apostrophe.

/** The Asia/Taipei calendar month of an instant, YYYY-MM. */
export function taipeiMonth(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 7);
}

/** The month delta months after month (YYYY-MM). */
export function shiftMonth(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const i = y * 12 + (m - 1) + delta;
  return `${String(Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}`;
}

/** The Taipei time of an instant, YYYY-MM-DD HH:mm:ss. */
export function taipeiStamp(iso: string): string {
  return new Date(new Date(iso).getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

export const BOM = '\uFEFF';

/** One CSV field: quoted when it holds a comma, quote or line break; text starting like a formula defused. */
export function csvCell(v: string, text = false): string {
  let s = v;
  if (text && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csv(header: string[], rows: { cells: string[]; text: boolean[] }[]): string {
  const lines = [header.map((h) => csvCell(h, true)).join(',')];
  for (const r of rows) lines.push(r.cells.map((c, i) => csvCell(c, r.text[i])).join(','));
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

/** The labels the CSV shows: column names and each line's type and status in the reader's language. */
export interface CsvLabels {
  col: (key: string) => string;
  type: (type: string) => string;
  status: (status: string) => string;
  side: (side: string) => string;
}

/** Every fund record line of the month, oldest first. */
export function fundsCsv(st: Statement, l: CsvLabels): string {
  const header = ['date', 'type', 'orderNo', 'currency', 'amount', 'status', 'symbol', 'remark'].map(l.col);
  return csv(
    header,
    st.lines.map((x) => ({
      cells: [taipeiStamp(x.createdAt), l.type(x.type), x.orderNo, x.currency, x.amount, l.status(x.status), x.symbol, x.remark],
      text: [false, true, true, true, false, true, true, true],
    })),
  );
}

/** Every fill of the month with its fee and tax, oldest first. */
export function tradesCsv(st: Statement, l: CsvLabels): string {
  const cols = ['date', 'orderNo', 'symbol', 'name', 'side', 'shares', 'currency', 'amount', 'fee', 'tax', 'financing', 'collateral', 'settleDate'];
  return csv(
    cols.map(l.col),
    st.trades.map((x) => ({
      cells: [taipeiStamp(x.at), x.orderNo, x.symbol, x.name, l.side(x.side), x.shares, x.currency, x.amount, x.fee, x.tax, x.financing, x.collateral, x.settleDate],
      text: [false, true, true, true, true, false, true, false, false, false, false, false, false],
    })),
  );
}

/** Whether a line's amount happened (pending and rejected ones are listed, not counted). */
export function counted(status: string): boolean {
  return status === 'completed' || status === 'approved';
}

/** Sum of decimal strings to the cent (BigInt, no float). */
export function sumCents(vs: readonly string[]): string {
  let n = 0n;
  for (const v of vs) {
    const m = /^(-?)(\d+)(?:\.(\d{0,2})\d*)?$/.exec(v.trim());
    if (!m) continue;
    const c = BigInt(m[2]! + (m[3] ?? '').padEnd(2, '0'));
    n += m[1] ? -c : c;
  }
  const neg = n < 0n;
  const s = (neg ? -n : n).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
}

/** Per currency, the net of the lines that happened: the statement's change when the lines tell all. */
export function netOfLines(st: Statement): Record<string, string> {
  const by: Record<string, string[]> = {};
  for (const x of st.lines) {
    if (!x.currency || x.currency.includes(':') || !counted(x.status)) continue;
    (by[x.currency] ??= []).push(x.amount);
  }
  return Object.fromEntries(Object.entries(by).map(([c, vs]) => [c, sumCents(vs)]));
}

/** Saves text as a file (the browser's download). */
export function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
