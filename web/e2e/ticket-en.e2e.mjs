// Issue 14's order ticket in English.
import { ticketJourney } from './ticket.mjs';

ticketJourney('en');
