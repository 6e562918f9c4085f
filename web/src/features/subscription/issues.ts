import type { Issue, IssueForm } from './api';

/** Why a member cannot apply to an issue now, or null when they can. */
export function applyBlock(is: Pick<Issue, 'state' | 'applied'>): 'applied' | 'not_started' | 'subscribing' | 'ended' | null {
  if (is.applied) return 'applied';
  return is.state === 'to_subscribe' ? null : is.state;
}

/** The ops form as typed: dates as YYYY-MM-DD, window times as the datetime-local input gives them (Taipei). */
export type IssueValues = Record<Exclude<keyof IssueForm, 'lots' | 'unitLots' | 'name'>, string> & { lots: string; unitLots: string; name: string };

export const emptyIssue: IssueValues = {
  symbol: '', name: '', price: '', referencePrice: '', lots: '', unitLots: '1', opensAt: '', closesAt: '',
  drawDate: '', deductionDate: '', refundDate: '', listingDate: '', pe: '', industryPe: '',
};

const WHOLE = /^[1-9][0-9]{0,7}$/;

/** A Taipei wall-clock time ("2026-03-02T09:00") as an RFC 3339 instant, or null. */
export function taipeiInstant(local: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local)) return null;
  const d = new Date(`${local}:00+08:00`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace('.000Z', 'Z');
}

/**
 * The request body of an ops listing, or null when a field is missing or not a whole number of
 * lots; the server checks the decimals and the calendar's order and answers with its own keys.
 */
export function issueBody(v: IssueValues): IssueForm | null {
  const opensAt = taipeiInstant(v.opensAt);
  const closesAt = taipeiInstant(v.closesAt);
  const text = [v.symbol, v.price, v.referencePrice, v.drawDate, v.deductionDate, v.refundDate, v.listingDate, v.pe, v.industryPe];
  if (!opensAt || !closesAt || text.some((s) => s.trim() === '') || !WHOLE.test(v.lots) || !WHOLE.test(v.unitLots)) return null;
  const body: IssueForm = {
    symbol: v.symbol.trim().toUpperCase(), price: v.price.trim(), referencePrice: v.referencePrice.trim(), lots: Number(v.lots),
    unitLots: Number(v.unitLots), opensAt, closesAt, drawDate: v.drawDate, deductionDate: v.deductionDate, refundDate: v.refundDate,
    listingDate: v.listingDate, pe: v.pe.trim(), industryPe: v.industryPe.trim(),
  };
  if (v.name.trim() !== '') body.name = v.name.trim();
  return body;
}
