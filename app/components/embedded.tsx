import { createContext, useContext } from "react";

/** False in the offline demo, where the admin runs in a plain browser tab without App Bridge. */
export const EmbeddedContext = createContext(true);

export const useEmbedded = () => useContext(EmbeddedContext);
