// Issue 11's block trade in Traditional Chinese.
import { blockJourney } from './block.mjs';

blockJourney('tw');
