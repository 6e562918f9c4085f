// Navigation of issues 12 and 13 in Chinese.
import { hubJourney } from './hub.mjs';

hubJourney('tw');
