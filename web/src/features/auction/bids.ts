import { priceOf, taipeiInstant, wholeLots } from '@/domain/offering/offering';
import type { Auction, AuctionForm } from './api';

/** Why a member cannot bid on an auction now, or null when they can (the server checks again). */
export function bidBlock(a: Pick<Auction, 'state' | 'myLots' | 'maxLotsPerBidder'>): 'upcoming' | 'closed' | 'listed' | 'capped' | null {
  if (a.state !== 'open') return a.state;
  return a.myLots >= a.maxLotsPerBidder ? 'capped' : null;
}

/** What a bid freezes: the deposit rate (per cent) of price × shares, rounded up to a whole NT$ as the server does. */
export function depositOf(price: string, lots: number, lotShares: number, ratePercent: string): number {
  // Whole cents and hundredths of a per cent keep it exact; the server's decimal rule is the one that counts.
  const cents = Math.round(Number(price) * 100) * lots * lotShares;
  const basis = Math.round(Number(ratePercent) * 100); // 20.00 % is 2000
  return Math.ceil((cents * basis) / 1_000_000);
}

/** A bid as typed, checked against the auction's published terms; the message key of the first problem or the body. */
export function bidBody(a: Pick<Auction, 'minPrice' | 'maxLotsPerBidder' | 'myLots'>, price: string, lots: string): { body: { price: string; lots: number } } | { error: string } {
  const p = priceOf(price);
  if (!p) return { error: 'price_invalid' };
  const n = wholeLots(lots);
  if (n === null) return { error: lots.trim() === '' ? 'quantity_required' : 'quantity_invalid' };
  if (Number(p) < Number(a.minPrice)) return { error: 'auction_price_below_minimum' };
  if (a.myLots + n > a.maxLotsPerBidder) return { error: 'offering_cap_exceeded' };
  return { body: { price: p, lots: n } };
}

/** The ops form as typed. */
export interface AuctionValues {
  symbol: string;
  name: string;
  lots: string;
  minPrice: string;
  maxLotsPerBidder: string;
  depositRate: string;
  opensAt: string;
  closesAt: string;
  awardDate: string;
  listingDate: string;
}

export const emptyAuction: AuctionValues = {
  symbol: '', name: '', lots: '', minPrice: '', maxLotsPerBidder: '', depositRate: '20', opensAt: '', closesAt: '', awardDate: '', listingDate: '',
};

/** The request body of an ops listing, or null when a field is missing; the server checks the rest with its own keys. */
export function auctionBody(v: AuctionValues): AuctionForm | null {
  const opensAt = taipeiInstant(v.opensAt);
  const closesAt = taipeiInstant(v.closesAt);
  const lots = wholeLots(v.lots);
  const cap = wholeLots(v.maxLotsPerBidder);
  if (!opensAt || !closesAt || lots === null || cap === null || [v.symbol, v.minPrice, v.depositRate, v.awardDate, v.listingDate].some((s) => s.trim() === '')) return null;
  const body: AuctionForm = {
    symbol: v.symbol.trim().toUpperCase(), lots, minPrice: v.minPrice.trim(), maxLotsPerBidder: cap, depositRate: v.depositRate.trim(),
    opensAt, closesAt, awardDate: v.awardDate, listingDate: v.listingDate,
  };
  if (v.name.trim() !== '') body.name = v.name.trim();
  return body;
}
