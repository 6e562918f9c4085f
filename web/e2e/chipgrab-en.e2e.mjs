// Issue 11's chip grabbing in English.
import { chipGrabJourney } from './chipgrab.mjs';

chipGrabJourney('en');
