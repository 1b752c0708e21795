// The one way to pick a port before a server starts (dev/http.ts says why it avoids port 0's pick).
export { freePort } from "../dev/http";
