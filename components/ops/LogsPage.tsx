// 'Gestion des Logs' (spec 001 §2.13): the page title, then the island over the server's first view.
import { Island } from "../Island.tsx";
import { PageTitle } from "../dashboard/parts.tsx";
import LogsManager from "../../islands/LogsManager.tsx";
import { LOG_MESSAGES, type LogFilters, type LogsData } from "../../lib/ops/rules.ts";

export function LogsPage({ data, filters }: { data: LogsData; filters: LogFilters }) {
  return (
    <>
      <PageTitle>{LOG_MESSAGES.title}</PageTitle>
      <Island component={LogsManager} props={{ initial: data, filters }} />
    </>
  );
}
