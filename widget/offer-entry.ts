/** The offer asset (chat-offer.js): registers the offer renderer for the chat. */
import { OFFER_GLOBAL } from "./bridge";
import { offerNodes } from "./offer";

window[OFFER_GLOBAL] ??= { offerNodes };
