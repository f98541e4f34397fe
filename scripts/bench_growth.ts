// Costs that grow with the data ("Production, part 2" §6): the same requests on the demo data and on
// grown volumes, on PostgreSQL. A measurement, not a test: it prints figures and exits 0 whatever they
// are. Run by scripts/bench.ts (`deno task bench --parts=growth`), or alone:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres deno run -A scripts/bench_growth.ts [--requests=N]
//
// A throw-away database (withFreshDatabase, prefix `growth`, dropped whatever happens), migrated and
// seeded with the demo data; the requests are measured there ("demo"), then the volumes are built with
// set-based SQL (insert … select from generate_series, as the table owner; the deals without their row
// triggers, then one pending HubSpot sync job per deal as a database upgraded from before the switch
// has; the logs with their count triggers):
//   - 100 000 deals with their contacts and search text (the expression of refreshSearchText), a
//     quarter of them for partenaire@example.fr, 1 000 for client@example.fr;
//   - 1 000 000 log rows over the last 23 days;
//   - 1 018 chat messages on the customer's quote;
// then VACUUM ANALYZE, then what the app does at start (lib/crm/switch.ts, where it exists: this file
// also runs on older code, to compare), and the same requests again ("grown"). Each request: 3 warm-up
// calls then N sequential calls (default 40) through the real app in this process (createApp, a real
// login; no network): p50, p95 and the answer's bytes. The machine's load is printed: figures move with
// other processes.
import postgres from "postgres";
import { withFreshDatabase } from "./fresh_database.ts";
import { openPostgres } from "../lib/db/postgres.ts";
import { migrate } from "../lib/db/migrate.ts";
import { DEMO_PASSWORD, seedDemoData } from "../lib/seed/demo.ts";
import { loadConfig } from "../lib/config.ts";
import { createLogger } from "../lib/log/logger.ts";
import { createBackground, type Deps } from "../lib/deps.ts";
import { memoryStorage } from "../lib/storage/storage.ts";
import { createApp } from "../routes/_app.tsx";
import type { Database } from "../lib/db/database.ts";
import { SEARCH_ACCENTED, SEARCH_PLAIN } from "../lib/deals/store.ts";

const ORIGIN = "http://localhost:8000";
const DEALS = 100_000;
const LOGS = 1_000_000;
const CHAT = 1_018;
const CUSTOMER_DEALS = 1_000;

export interface BenchGrowthOptions {
  databaseUrl: string | undefined;
  /** Sequential calls per request (after 3 warm-up calls). */
  requests?: number;
  log?: (line: string) => void;
}

interface Figure {
  p50: number;
  p95: number;
  bytes: number;
  status: number;
}

interface Target {
  label: string;
  who: "admin" | "customer" | "partner";
  path: string;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

type App = Awaited<ReturnType<typeof createApp>>;

async function login(app: App, email: string): Promise<string> {
  const res = await app.request(`${ORIGIN}/api/security/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ username: email, password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: HTTP ${res.status} ${await res.text()}`);
  await res.body?.cancel();
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

async function measure(app: App, cookie: string, path: string, n: number): Promise<Figure> {
  const call = async () => {
    const started = performance.now();
    const res = await app.request(`${ORIGIN}${path}`, { headers: { cookie } });
    const body = new Uint8Array(await res.arrayBuffer());
    return { ms: performance.now() - started, bytes: body.byteLength, status: res.status };
  };
  for (let i = 0; i < 3; i++) await call();
  const times: number[] = [];
  let last = { ms: 0, bytes: 0, status: 0 };
  for (let i = 0; i < n; i++) {
    last = await call();
    times.push(last.ms);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), bytes: last.bytes, status: last.status };
}

interface Subjects {
  dealId: number;
  token: string;
  email: string;
  lastname: string;
  hubspotId: string;
  number: number;
}

/** The targets, with the grown data's search subjects (a deal among the 100 000) when there are. */
function targets(s: Subjects): Target[] {
  const q = (v: string | number) => encodeURIComponent(String(v));
  return [
    { label: "admin deals list page (HTML), first page", who: "admin", path: "/dashboard/admin/devis" },
    { label: "admin deals API, first page", who: "admin", path: "/api/deal/index" },
    { label: "admin deals API, page 200", who: "admin", path: "/api/deal/index?page=200" },
    { label: "admin deals API, by service date", who: "admin", path: "/api/deal/index?sort=serviceDate" },
    { label: "admin search: email", who: "admin", path: `/api/deal/index?search=${q(s.email)}` },
    { label: "admin search: last name", who: "admin", path: `/api/deal/index?search=${q(s.lastname)}` },
    { label: "admin search: deal number", who: "admin", path: `/api/deal/index?search=${q(s.number)}` },
    { label: "admin search: HubSpot id", who: "admin", path: `/api/deal/index?search=${q(s.hubspotId)}` },
    { label: "customer's quote page (chat)", who: "customer", path: `/deal/show/${s.token}` },
    {
      label: "chat API, latest",
      who: "customer",
      path: `/api/chat/messages?entityId=${s.dealId}&entityType=DealCompany`,
    },
    { label: "customer's 'Mes devis'", who: "customer", path: "/dashboard/client/devis" },
    { label: "customer's deals API", who: "customer", path: "/api/customer/deal/index" },
    { label: "partner's 'Mes devis'", who: "partner", path: "/dashboard/partenaire/devis" },
    { label: "outbox admin API", who: "admin", path: "/api/admin/outbox" },
    { label: "logs page", who: "admin", path: "/dashboard/admin/logs" },
    { label: "logs API", who: "admin", path: "/api/logs" },
  ];
}

async function measureAll(
  db: Database,
  n: number,
  subjects: Subjects,
): Promise<Map<string, Figure>> {
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN })[name]);
  const logger = createLogger(db, { quiet: true });
  const deps: Deps = { config, db, logger, background: createBackground(logger), storage: memoryStorage() };
  const app = await createApp(deps);
  const cookies = {
    admin: await login(app, "admin@example.fr"),
    customer: await login(app, "client@example.fr"),
    partner: await login(app, "partenaire@example.fr"),
  };
  const out = new Map<string, Figure>();
  for (const t of targets(subjects)) out.set(t.label, await measure(app, cookies[t.who], t.path, n));
  await deps.background.settle();
  return out;
}

/** The customer's quote with the chat: a deal of client@example.fr with partenaire@example.fr. */
async function subjectsOf(sql: postgres.Sql, grown: boolean): Promise<Subjects> {
  const [deal] = await sql<{ id: number; token: string }[]>`
    select d.id::int as id, d.token from public.deals d
    join public.users c on c.id = d.customer_id join public.users p on p.id = d.company_id
    where c.email = 'client@example.fr' and p.email = 'partenaire@example.fr'
      and d.status in ('send', 'edited', 'accepted', 'pay_partial', 'pay_total', 'win')
    order by d.id limit 1`;
  if (!deal) throw new Error("no demo deal of client@example.fr with partenaire@example.fr");
  // Searched: a deal in the middle of the grown ones (or the demo's first with a HubSpot id).
  const [probe] = await sql<{ id: number; email: string; lastname: string; hubspotId: string }[]>`
    select d.id::int as id, c.email, c.lastname, coalesce(d.hubspot_id, '') as "hubspotId"
    from public.deals d join public.deal_contacts c on c.deal_id = d.id
    where ${grown} = false or d.id > (select max(id) - ${DEALS / 2} from public.deals)
    order by (d.hubspot_id is null), d.id limit 1`;
  return {
    dealId: deal.id,
    token: deal.token,
    email: probe.email,
    lastname: probe.lastname,
    hubspotId: probe.hubspotId || "0",
    number: probe.id,
  };
}

/** The volumes, set-based. */
export async function grow(sql: postgres.Sql, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const [{ partner, customer, others }] = await sql<
    { partner: string; customer: string; others: string[] }[]
  >`
    select (select id from public.users where email = 'partenaire@example.fr') as partner,
           (select id from public.users where email = 'client@example.fr') as customer,
           (select array_agg(id) from public.users where type = 'Company' and email <> 'partenaire@example.fr')
             as others`;
  const [{ first }] = await sql<{ first: number }[]>`
    select (coalesce(max(id), 0) + 1)::int as first from public.deals`;
  // The deals' row triggers (status history, chat notices, HubSpot sync) would take minutes here: they
  // are off for this connection while the deals are written (session_replication_role), and the one
  // that matters for the figures is replayed below.
  await sql`set session_replication_role = replica`;
  await sql`
    insert into public.deals (name, status, hubspot_id, total_ht, service_date, guests, event_type, company_id,
                              customer_id, created_at, properties, settings)
    select (array['Mariage', 'Anniversaire', 'Soirée d''entreprise', 'Séminaire'])[1 + g % 4] || ' – ' ||
             (array['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy',
                    'Moreau', 'Simon', 'Laurent', 'Lefèvre', 'Michel', 'Garcia'])[1 + g % 15] || ' ' || g,
           (array['new', 'pending', 'send', 'edited', 'accepted', 'pay_partial', 'pay_total', 'win',
                  'refused_client'])[1 + g % 9],
           case when g % 10 < 7 then (1000000000 + g * 7919 % 8999999999)::text end,
           (50000 + g * 37 % 900000)::bigint,
           case when g % 20 = 0 then null else current_date + (g % 400 - 200) end,
           10 + g % 500,
           (array['Mariage', 'Anniversaire', 'Soirée d''entreprise', 'Séminaire'])[1 + g % 4],
           case when g % 4 = 0 then ${partner}::uuid
                else (${others}::uuid[])[1 + g % cardinality(${others}::uuid[])] end,
           case when g % ${DEALS / CUSTOMER_DEALS} = 0 then ${customer}::uuid end,
           now() - make_interval(secs => (${DEALS} - g) * 300),
           jsonb_build_object('ville', (array['Paris', 'Lyon', 'Nantes', 'Lille'])[1 + g % 4]),
           '{"hasDeposit": true, "depositPercentage": 30}'::jsonb
    from generate_series(1, ${DEALS}) g`;
  // The contacts with their search text at once (the expression of refreshSearchText in
  // lib/deals/store.ts): an update afterwards would write every row and its trigram entries twice.
  await sql`
    insert into public.deal_contacts (deal_id, firstname, lastname, email, phone, service_address, search_text)
    select x.id, x.firstname, x.lastname, x.email, x.phone, x.address,
           translate(lower(concat_ws(' ', x.id, x.name, x.firstname, x.lastname, x.email, x.phone, p.name, p.email,
             p.firstname, p.lastname, x.hubspot_id)), ${SEARCH_ACCENTED}, ${SEARCH_PLAIN})
    from (
      select d.id, d.name, d.hubspot_id, d.company_id,
             (array['Élodie', 'Jean', 'Camille', 'Lucas', 'Chloé', 'Hugo', 'Léa', 'Louis'])[1 + d.id % 8] as firstname,
             (array['Perrin', 'Fontaine', 'Chevalier', 'Robin', 'Masson', 'Sanchez', 'Gérard', 'Nguyen', 'Boyer',
                    'Denis', 'Lemaire', 'Duval'])[1 + d.id % 12] || d.id % 997 as lastname,
             'contact' || d.id || '@' || (array['gmail.com', 'orange.fr', 'free.fr', 'entreprise.fr'])[1 + d.id % 4]
               as email,
             '+336' || lpad((d.id * 7919 % 100000000)::text, 8, '0') as phone, d.id || ' rue de la Paix, Paris' as address
      from public.deals d where d.id >= ${first}
    ) x left join public.users p on p.id = x.company_id`;
  await sql`set session_replication_role = origin`;
  // A database that ran before the HubSpot switch existed: every deal changed since has its pending
  // sync job (one per deal, coalesced), whether HubSpot is configured or not.
  await sql`
    insert into outbox.jobs (queue, payload, key)
    select 'crm-sync', jsonb_build_object('dealId', d.id), 'deal-' || d.id from public.deals d where d.id >= ${first}
    on conflict do nothing`;
  log(`  ${DEALS} deals and contacts: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  let t = performance.now();
  await sql`
    insert into public.logs (created_at, service, type, message, context)
    select now() - make_interval(secs => g * 2),
           (array['hubspot', 'stripe', 'mail', 'jobs', 'outbox', 'http', 'auth', 'payments'])[1 + g % 8],
           (array['info', 'info', 'info', 'warning', 'error'])[1 + g % 5],
           'Message de test n°' || g, jsonb_build_object('n', g)
    from generate_series(1, ${LOGS}) g`;
  log(`  ${LOGS} log rows: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  const subjects = await subjectsOf(sql, false);
  await sql`
    insert into public.chat_messages (deal_id, type, text, author_id)
    select ${subjects.dealId}, 'message', 'Message de test n°' || g || ' : à quelle heure arrivez-vous ?',
           case when g % 2 = 0 then ${customer}::uuid else ${partner}::uuid end
    from generate_series(1, ${CHAT}) g`;
  log(`  ${CHAT} chat messages: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  await sql.unsafe("vacuum analyze");
  log(`  vacuum analyze: ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

async function pendingSyncs(sql: postgres.Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from outbox.jobs where queue = 'crm-sync' and state = 'pending'`;
  return row.n;
}

/** What the app does at start about the HubSpot switch (main.ts), where this code has it. */
async function appStart(db: Database): Promise<string> {
  const path = "../lib/crm/switch.ts";
  try {
    const module = await import(path);
    const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN })[name]);
    const purged = await module.recordCrmSync(db, config);
    return `HubSpot off at start: ${purged} pending sync jobs purged`;
  } catch {
    return "no HubSpot switch in this code";
  }
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1)).padStart(6);
const kb = (v: number) => `${(v / 1024).toFixed(1)} kB`.padStart(10);

export async function benchGrowth(options: BenchGrowthOptions): Promise<void> {
  const log = options.log ?? console.log;
  const n = Math.min(Math.max(options.requests ?? 40, 5), 500);
  log("\n## Growth: the same requests on the demo data and on grown volumes (PostgreSQL)");
  if (!options.databaseUrl) {
    log("  not measured: DATABASE_URL is not set");
    return;
  }
  log(`  load average before: ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}; ${n} calls each`);
  await withFreshDatabase(options.databaseUrl, "growth", async (url) => {
    const db = openPostgres(url, { max: 4 });
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await migrate(db);
      await seedDemoData(db);
      log(`  ${await appStart(db)} (demo)`);
      const demo = await measureAll(db, n, await subjectsOf(sql, false));
      await grow(sql, log);
      const pendingBefore = await pendingSyncs(sql);
      const started = await appStart(db);
      log(
        `  pending crm-sync jobs after building: ${pendingBefore}; ${started}; now ${await pendingSyncs(
          sql,
        )}`,
      );
      const subjects = await subjectsOf(sql, true);
      log(
        `  searched deal #${subjects.number}: ${subjects.email}, '${subjects.lastname}', HubSpot ${subjects.hubspotId}`,
      );
      log(`  load average before measuring: ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
      const grown = await measureAll(db, n, subjects);
      log(
        `\n  ${
          "request".padEnd(44)
        } | demo p50 |   p95 |      bytes | grown p50 |   p95 |      bytes | p50 ratio`,
      );
      for (const [label, d] of demo) {
        const g = grown.get(label)!;
        const bad = [d, g].some((f) => f.status !== 200) ? `  (HTTP ${d.status}/${g.status})` : "";
        log(
          `  ${label.padEnd(44)} |   ${ms(d.p50)} |${ms(d.p95)} | ${kb(d.bytes)} |    ${ms(g.p50)} |${
            ms(g.p95)
          } | ${kb(g.bytes)} | ${(g.p50 / d.p50).toFixed(1).padStart(8)}x${bad}`,
        );
      }
      log("  (ms; bytes of the answer's body; one run)");
    } finally {
      await sql.end({ timeout: 5 });
      await db.close();
    }
  });
}

if (import.meta.main) {
  const arg = (name: string) => Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  await benchGrowth({ databaseUrl: Deno.env.get("DATABASE_URL"), requests: Number(arg("requests") ?? 40) });
}
