/**
 * What buying board lots at a price costs, as the server computes it (commands/rules/fees): the
 * amount and the 0.1425 % commission, rounded down to whole NT$ and at least NT$20. Block and chip
 * grab applications freeze this much.
 */
export function boardLotCost(lots: number, price: number): number {
  const amount = Math.round(lots * 1000 * price * 100) / 100;
  return amount + Math.max(20, Math.floor(amount * 0.001425));
}
