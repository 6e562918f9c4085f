// Issue 13.1's first set-up of a deployment, in English.
import { consoleJourney } from './console.mjs';

consoleJourney('en');
