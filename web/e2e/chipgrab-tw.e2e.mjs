// Issue 11's chip grabbing in Traditional Chinese.
import { chipGrabJourney } from './chipgrab.mjs';

chipGrabJourney('tw');
