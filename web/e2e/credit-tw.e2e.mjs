// Issue 12's credit loans in Traditional Chinese.
import { creditJourney } from './credit.mjs';

creditJourney('tw');
