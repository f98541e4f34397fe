// The deals capability's emails now live in lib/mail/templates/ (one file each); re-exported here so
// that older imports keep working.
export { partnerNewDealEmail, quoteReadyEmail, requestReceivedEmail } from "../mail/templates.ts";
