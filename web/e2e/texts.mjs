// The texts the browser tests expect on screen, written out (not imported from the app) so a
// wrong or missing translation fails here. Keys follow web/src/lib/i18n/locales.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

export const TEXTS = {
  tw: {
    htmlLang: 'zh-TW',
    confirm: '確定',
    welcomeRegister: '註冊',
    loginTitle: '登入',
    registerTitle: '註冊',
    registerSuccess: '註冊成功',
    loginSuccess: '登入成功',
    logoutConfirm: '確定要登出嗎？',
    submitted: '已送出，等待審核',
    statusPending: '待審核',
    statusApproved: '已通過',
    approve: '通過',
    approvedToast: '已通過',
    rejectedToast: '已駁回',
    statusRejected: '已駁回',
    rejectRemark: '轉帳憑證不清楚',
    tabHome: '首頁',
    tabMine: '我的',
    msg: {
      account_required: '請輸入帳號',
      password_required: '請輸入密碼',
      account_invalid: '帳號須為 09 開頭的 10 位手機號碼或有效的身分證字號',
      password_invalid: '密碼須為 8–20 位英文字母或數字',
      passwords_inconsistent: '兩次輸入的密碼不一致',
      invite_code_required: '請輸入邀請碼',
      agreement_required: '請先閱讀並同意隱私權協議',
      account_exists: '帳號已存在',
      account_or_password_wrong: '帳號或密碼錯誤',
      inviter_not_exist: '邀請人不存在',
      channel_password_wrong: '儲值密碼錯誤',
      amount_required: '請輸入金額',
      amount_below_minimum: '金額低於最低限額',
      amount_above_maximum: '金額高於最高限額',
      deposit_proof_required: '請先上傳儲值憑證',
      remark_required: '請輸入備註',
    },
  },
  en: {
    htmlLang: 'en',
    confirm: 'Confirm',
    welcomeRegister: 'Register',
    loginTitle: 'Log in',
    registerTitle: 'Register',
    registerSuccess: 'Registered',
    loginSuccess: 'Logged in',
    logoutConfirm: 'Log out now?',
    submitted: 'Submitted, waiting for review',
    statusPending: 'Pending review',
    statusApproved: 'Passed',
    approve: 'Approve',
    approvedToast: 'Approved',
    rejectedToast: 'Rejected',
    statusRejected: 'Rejected',
    rejectRemark: 'The transfer proof is unreadable',
    tabHome: 'Home',
    tabMine: 'Mine',
    msg: {
      account_required: 'Please enter the account',
      password_required: 'Please enter the password',
      account_invalid: 'The account must be a 10-digit mobile number starting 09 or a valid ID number',
      password_invalid: 'The password must be 8–20 letters or digits',
      passwords_inconsistent: 'The two passwords do not match',
      invite_code_required: 'Please enter the invite code',
      agreement_required: 'Please read and accept the privacy agreement first',
      account_exists: 'The account already exists',
      account_or_password_wrong: 'Wrong account or password',
      inviter_not_exist: 'The inviter does not exist',
      channel_password_wrong: 'Wrong deposit password',
      amount_required: 'Please enter the amount',
      amount_below_minimum: 'The amount is below the minimum',
      amount_above_maximum: 'The amount is above the maximum',
      deposit_proof_required: 'Please upload the deposit proof first',
      remark_required: 'Please enter a remark',
    },
  },
};

/**
 * Translation keys that leak when a text is missing (i18next shows the key): a top-level
 * namespace of the translation file followed by a dot and a name, in the page's text.
 */
function namespaces() {
  const src = readFileSync(new URL('../src/lib/i18n/locales/zh-TW.ts', import.meta.url), 'utf8');
  const names = [...src.matchAll(/^ {2}([a-zA-Z]+): /gm)].map((m) => m[1]);
  assert.ok(names.includes('msg'), 'the namespaces of zh-TW.ts are found');
  // The money screens' texts load with them, under wallet. (src/domain/wallet).
  return [...new Set([...names, 'wallet'])];
}
export const RAW_KEY = new RegExp(`\\b(?:${namespaces().join('|')})\\.[a-zA-Z_]+`);
