/** Whether an error is the database busy with another process's lock, for code outside app/models. */
export { isDatabaseBusy } from "./db.server";
