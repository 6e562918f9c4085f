import { priceOf, taipeiInstant, wholeLots } from '@/domain/offering/offering';
import type { Placement, PlacementForm } from './api';

/** Why a member cannot apply to a placement now, or null when they can (the server checks again). */
export function applyBlock(p: Pick<Placement, 'state' | 'myLots' | 'maxLotsPerMember'>): 'upcoming' | 'closed' | 'listed' | 'capped' | null {
  if (p.state !== 'open') return p.state;
  return p.myLots >= p.maxLotsPerMember ? 'capped' : null;
}

/** An application as typed against the published cap: the lots, or the message key of the problem. */
export function applyLots(p: Pick<Placement, 'myLots' | 'maxLotsPerMember'>, lots: string): { lots: number } | { error: string } {
  const n = wholeLots(lots);
  if (n === null) return { error: lots.trim() === '' ? 'quantity_required' : 'quantity_invalid' };
  if (p.myLots + n > p.maxLotsPerMember) return { error: 'offering_cap_exceeded' };
  return { lots: n };
}

/** The ops form as typed. */
export interface PlacementValues {
  symbol: string;
  name: string;
  price: string;
  lots: string;
  maxLotsPerMember: string;
  opensAt: string;
  closesAt: string;
  listingDate: string;
}

export const emptyPlacement: PlacementValues = { symbol: '', name: '', price: '', lots: '', maxLotsPerMember: '', opensAt: '', closesAt: '', listingDate: '' };

/** The request body of an ops offer, or null when a field is missing; the server checks the rest. */
export function placementBody(v: PlacementValues): PlacementForm | null {
  const opensAt = taipeiInstant(v.opensAt);
  const closesAt = taipeiInstant(v.closesAt);
  const lots = wholeLots(v.lots);
  const cap = wholeLots(v.maxLotsPerMember);
  const price = priceOf(v.price);
  if (!opensAt || !closesAt || lots === null || cap === null || !price || v.symbol.trim() === '' || v.listingDate === '') return null;
  const body: PlacementForm = { symbol: v.symbol.trim().toUpperCase(), price, lots, maxLotsPerMember: cap, opensAt, closesAt, listingDate: v.listingDate };
  if (v.name.trim() !== '') body.name = v.name.trim();
  return body;
}
