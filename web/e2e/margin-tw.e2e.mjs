// Issue 12's additional credit margin in Traditional Chinese.
import { marginJourney } from './margin.mjs';

marginJourney('tw');
