// Issue 12's stock lending in English.
import { lendingJourney } from './lending.mjs';

lendingJourney('en');
