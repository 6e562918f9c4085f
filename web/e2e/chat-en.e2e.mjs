// Issue 13's customer service chat in English.
import { chatJourney } from './chat.mjs';

chatJourney('en');
