// Query keys of the money data that several features show (mine, the wallet screens, ops).
export const walletKeys = {
  realName: ['wallet', 'realname'] as const,
  cards: ['wallet', 'cards'] as const,
  balances: ['wallet', 'balances'] as const,
  creditRule: ['wallet', 'creditRule'] as const,
  withdrawChannels: ['wallet', 'withdrawChannels'] as const,
  /** the credit summary: under ['credit'], so that credit's commands invalidate it */
  creditSummary: ['credit', 'summary'] as const,
};
