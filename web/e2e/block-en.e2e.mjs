// Issue 11's block trade in English.
import { blockJourney } from './block.mjs';

blockJourney('en');
