// Issue 11's placement in English.
import { placementJourney } from './placement.mjs';

placementJourney('en');
