/** The products asset (chat-products.js): registers the product cards and the cart for the chat. */
import { PRODUCTS_GLOBAL } from "./bridge";
import { fillCards } from "./products";

window[PRODUCTS_GLOBAL] ??= { fillCards };
