// Issue 13's daily check-in and coupons in English.
import { couponsJourney } from './coupons.mjs';

couponsJourney('en');
