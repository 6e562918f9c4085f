// Issue 13.1's first set-up of a deployment, in Traditional Chinese.
import { consoleJourney } from './console.mjs';

consoleJourney('tw');
