// Issue 14 items 2 and 3 (the stock screen, quotes without logging in) in Traditional Chinese.
import { stockJourney } from './stock.mjs';

stockJourney('tw');
