import type { BodyOf, DataOf } from '@/lib/api/client';

export type OpsChannel = DataOf<'/api/vue/ops/channels', 'get'>[number];
export type ChannelBody = BodyOf<'/api/vue/ops/channels'>;

/** The channel form's fields, as typed. */
export interface ChannelValues {
  id: string;
  name: string;
  currency: string;
  min: string;
  max: string;
  weekdays: number[];
  open: string;
  close: string;
  closedOnHolidays: boolean;
  alwaysOpen: boolean;
  enabled: boolean;
  password: string;
  bank: string;
  branch: string;
  account: string;
  holder: string;
}

export const emptyChannel: ChannelValues = {
  id: '',
  name: '',
  currency: 'TWD',
  min: '',
  max: '',
  weekdays: [1, 2, 3, 4, 5],
  open: '09:00',
  close: '17:00',
  closedOnHolidays: true,
  alwaysOpen: false,
  enabled: true,
  password: '',
  bank: '',
  branch: '',
  account: '',
  holder: '',
};

/** The form filled with a channel as it is defined (the password is never sent back). */
export function channelValues(ch: OpsChannel): ChannelValues {
  return {
    id: ch.id,
    name: ch.name,
    currency: ch.currency,
    min: ch.min,
    max: ch.max,
    weekdays: ch.window.weekdays,
    open: ch.window.open,
    close: ch.window.close,
    closedOnHolidays: ch.window.closedOnHolidays,
    alwaysOpen: ch.window.alwaysOpen,
    enabled: ch.enabled,
    password: '',
    bank: ch.payee.bank,
    branch: ch.payee.branch,
    account: ch.payee.account,
    holder: ch.payee.name,
  };
}

const amount = /^\d{1,12}(\.\d{1,2})?$/;
const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The first field that is wrong (the server checks the same and more), or null (pure, tested). */
export function channelError(v: ChannelValues): keyof ChannelValues | null {
  if (!/^[a-z0-9_-]{1,32}$/.test(v.id)) return 'id';
  if (!v.name.trim() || v.name.trim().length > 64) return 'name';
  if (!/^[A-Z]{3}$/.test(v.currency)) return 'currency';
  if (!amount.test(v.min) || Number(v.min) <= 0) return 'min';
  if (!amount.test(v.max) || Number(v.max) < Number(v.min)) return 'max';
  if (!v.alwaysOpen) {
    if (v.weekdays.length === 0) return 'weekdays';
    if (!hhmm.test(v.open)) return 'open';
    if (!hhmm.test(v.close)) return 'close';
  }
  const anyPayee = [v.bank, v.branch, v.account, v.holder].some((s) => s.trim());
  if (anyPayee) {
    if (!v.bank.trim()) return 'bank';
    const digits = v.account.replace(/[\s-]/g, '');
    if (!/^\d{4,32}$/.test(digits) || /[^\d\s-]/.test(v.account)) return 'account';
    if (!v.holder.trim()) return 'holder';
  }
  return null;
}

/** The request that defines the channel as the form says. */
export function channelBody(v: ChannelValues): ChannelBody {
  return {
    id: v.id,
    name: v.name.trim(),
    currency: v.currency,
    min: v.min,
    max: v.max,
    ...(v.password ? { password: v.password } : {}),
    window: {
      weekdays: [...v.weekdays].sort((a, b) => a - b),
      open: v.open,
      close: v.close,
      tz: 'Asia/Taipei',
      closedOnHolidays: v.closedOnHolidays,
      alwaysOpen: v.alwaysOpen,
    },
    enabled: v.enabled,
    payee: { bank: v.bank.trim(), branch: v.branch.trim(), account: v.account.trim(), name: v.holder.trim() },
  };
}

/** A code ops typed: 4 to 16 letters or digits, or empty for a generated one (pure, tested). */
export function inviteCodeOK(code: string): boolean {
  return code === '' || /^[A-Za-z0-9]{4,16}$/.test(code);
}

/** A reason is required and short (the server takes up to 200 characters). */
export function reasonOK(reason: string): boolean {
  const r = reason.trim();
  return r.length > 0 && [...r].length <= 200;
}
