import { declareFundLines } from '@/lib/fundLines';
import type { FeatureRoute } from '@/lib/routes';

// The fund record lines of loans: the disbursement, each day's interest, each repayment.
declareFundLines({
  loan: { tw: '借款撥款', en: 'Loan disbursed' },
  loan_interest: { tw: '借款利息', en: 'Loan interest' },
  loan_repay: { tw: '借款還款', en: 'Loan repayment' },
});

export const creditRoutes: FeatureRoute[] = [
  {
    path: 'credit/borrow',
    zone: 'session',
    load: () => import('./BorrowPage'),
    entries: [{ place: 'mine', key: 'borrow', label: { tw: '信用借款', en: 'Borrow & repay' }, roles: ['member'] }],
  },
  {
    path: 'user/jkjl',
    zone: 'session',
    load: () => import('./LoanRecordsPage'),
    entries: [{ place: 'mine', key: 'jkjl', label: { tw: '借款記錄', en: 'Loan records' }, roles: ['member'] }],
  },
  {
    path: 'ops/credit/loans',
    zone: 'ops',
    load: () => import('./OpsLoansPage'),
    entries: [{ place: 'mine', key: 'ops-credit-loans', label: { tw: '借款審核', en: 'Loan review' }, roles: ['ops'] }],
  },
  {
    path: 'ops/credit/seats',
    zone: 'ops',
    load: () => import('./OpsSeatsPage'),
    entries: [{ place: 'mine', key: 'ops-credit-seats', label: { tw: '席位帳戶審核', en: 'Seat accounts' }, roles: ['ops'] }],
  },
];
