// Issue 12's AI quant in Traditional Chinese.
import { quantJourney } from './quant.mjs';

quantJourney('tw');
