// Issue 13's customer service chat in Traditional Chinese.
import { chatJourney } from './chat.mjs';

chatJourney('tw');
