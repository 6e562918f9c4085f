// Issue 12's copy trading in English.
import { copyTradeJourney } from './copytrade.mjs';

copyTradeJourney('en');
