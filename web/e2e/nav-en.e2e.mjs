// Navigation of issues 12 and 13 in English.
import { hubJourney } from './hub.mjs';

hubJourney('en');
