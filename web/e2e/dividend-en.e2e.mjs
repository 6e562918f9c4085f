// Issue 13's dividends in English.
import { dividendJourney } from './dividend.mjs';

dividendJourney('en');
