// Issue 11's placement in Traditional Chinese.
import { placementJourney } from './placement.mjs';

placementJourney('tw');
