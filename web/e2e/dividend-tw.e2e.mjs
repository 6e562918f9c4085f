// Issue 13's dividends in Traditional Chinese.
import { dividendJourney } from './dividend.mjs';

dividendJourney('tw');
