// Issue 14's order ticket in Traditional Chinese.
import { ticketJourney } from './ticket.mjs';

ticketJourney('tw');
