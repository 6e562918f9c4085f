// Issue 12's additional credit margin in English.
import { marginJourney } from './margin.mjs';

marginJourney('en');
