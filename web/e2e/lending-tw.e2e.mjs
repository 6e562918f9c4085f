// Issue 12's stock lending in Traditional Chinese.
import { lendingJourney } from './lending.mjs';

lendingJourney('tw');
