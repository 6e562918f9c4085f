// Issue 12's credit loans in English.
import { creditJourney } from './credit.mjs';

creditJourney('en');
