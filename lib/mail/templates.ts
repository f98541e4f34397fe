// Every French email template, one file each in lib/mail/templates/ (a pure function returning an
// OutgoingEmail: subject, text and HTML with every value escaped). This file re-exports them so that
// older imports keep working; new templates are new files there.
export { escapeHtml } from "./templates/layout.ts";
export { passwordResetEmail } from "./templates/password-reset.ts";
export { partnerInvitationEmail } from "./templates/partner-invitation.ts";
export { requestReceivedEmail } from "./templates/deal-request-received.ts";
export { partnerNewDealEmail } from "./templates/deal-new-partner.ts";
export { partnerRemovedEmail } from "./templates/deal-partner-removed.ts";
export { quoteReadyEmail } from "./templates/deal-quote-ready.ts";
export { quoteUpdatedEmail } from "./templates/deal-quote-updated.ts";
export { availabilityValidatedEmail } from "./templates/deal-availability-validated.ts";
export { paymentReceivedEmail } from "./templates/deal-payment-received.ts";
export { paymentReceivedPartnerEmail } from "./templates/deal-payment-received-partner.ts";
export { dealRefusedCustomerEmail } from "./templates/deal-refused-customer.ts";
export { dealRefusedPartnerEmail } from "./templates/deal-refused-partner.ts";
export { registrationEmail } from "./templates/account-registration.ts";
export { partnerReminderEmail } from "./templates/deal-reminder-manual-partner.ts";
export { customerReminderEmail } from "./templates/deal-reminder-manual-customer.ts";
export { customerInvoiceEmail } from "./templates/deal-invoice-customer.ts";
