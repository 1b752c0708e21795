import { createContext, useContext } from "react";
import { adminFormat, DEFAULT_LOCALE } from "../format";

/** The admin's locale (app/format.ts `adminLocaleOf`), set by the app's frame for every page. */
export const AdminLocaleContext = createContext(DEFAULT_LOCALE);

/** Dates and numbers written in the admin's locale, in the browser as on the server. */
export const useAdminFormat = () => adminFormat(useContext(AdminLocaleContext));
