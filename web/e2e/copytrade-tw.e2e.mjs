// Issue 12's copy trading in Traditional Chinese.
import { copyTradeJourney } from './copytrade.mjs';

copyTradeJourney('tw');
