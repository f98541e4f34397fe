// The admin's scheduled-email page: the title and the island over the server's first data.
import { Island } from "../Island.tsx";
import { PageTitle } from "../dashboard/parts.tsx";
import CronDashboard, { type CronDashboardProps } from "../../islands/CronDashboard.tsx";
import { CRON_MESSAGES } from "../../lib/mail/rules.ts";

export function CronPage(props: CronDashboardProps) {
  return (
    <>
      <PageTitle>{CRON_MESSAGES.title}</PageTitle>
      <Island component={CronDashboard} props={props} />
    </>
  );
}
