// Issue 12's AI quant in English.
import { quantJourney } from './quant.mjs';

quantJourney('en');
