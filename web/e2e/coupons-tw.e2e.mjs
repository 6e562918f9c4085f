// Issue 13's daily check-in and coupons in Traditional Chinese.
import { couponsJourney } from './coupons.mjs';

couponsJourney('tw');
