// The database fault scenario (ARCHITECTURE.md "Database faults, health and shutdown"), shared by the
// fault test (scripts/faults.ts, a step of `deno task test`) and `deno task bench --parts=faults`:
// two real app processes (main.ts) reach a fresh PostgreSQL database through a TCP proxy that can
// cut them off; a bounded client sends traffic throughout. Every backend is terminated twice, then
// the proxy drops everything for `cutMs` and lets connections through again; quote requests made
// before and after must each reach the local SMTP server exactly once; SIGTERM must end each process
// within its deadline, the second one in the middle of a slow SMTP send.
import postgres from "postgres";
import { withDatabase, withFreshDatabase } from "../fresh_database.ts";
import { startFakeSmtp } from "../../tests/support/fake_smtp.ts";
import { startProxy } from "./proxy.ts";

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface Figures {
  /** ms from restoring the network to /readyz 200, per instance. */
  readyAfterMs: number[];
  cut: {
    requests: number;
    refused503: number;
    other: number;
    maxMs: number;
    over2s: number;
    waiting: number;
  };
  /** Requests answered 500 over the whole run (must be 0). */
  errors500: number;
  /** Requests the client gave up on after 10 s (must be 0). */
  unanswered: number;
  requests: number;
  shutdownMs: number[];
}

export interface ScenarioOptions {
  adminUrl: string;
  /** Two app ports and the proxy's (0: any free port). */
  ports: [number, number, number?];
  cutMs?: number;
  shutdownTimeoutMs?: number;
  log?: (line: string) => void;
}

interface Sample {
  instance: number;
  start: number;
  ms: number;
  status: number;
  retryAfter: boolean;
}

const ROOT = new URL("../../", import.meta.url).pathname;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A quote request (tests/http/deal_request_test.ts) from `email`. */
function quoteRequest(email: string) {
  return {
    type_d_evenement: "Mariage - soirée dansante",
    deal_prestation_date: new Date(Date.now() + 120 * 86_400_000).toISOString().slice(0, 10),
    horaire_souhaite: "19:30",
    nombre_de_participants: 80,
    duree_2_service: 240,
    ville: "Lyon",
    adresse_precise: "Domaine des Saules, 12 chemin des Vignes, 69003 Lyon",
    distance_en_km: 25,
    bar_mobile: true,
    type_de_recette: "classic",
    creation_de_recette: false,
    description: "Test de panne.",
    firstname: "Julie",
    lastname: "Lefèvre",
    email,
    phone: "06 12 34 56 78",
    consent: true,
  };
}

class Instance {
  child: Deno.ChildProcess;
  output = "";
  exited: Promise<Deno.CommandStatus>;
  exitedAt: number | null = null;

  constructor(readonly port: number, env: Record<string, string>) {
    this.child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts"],
      cwd: ROOT,
      env: { ...env, PORT: String(port), HOST: "127.0.0.1", APP_URL: `http://127.0.0.1:${port}` },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      const decoder = new TextDecoder();
      for await (const chunk of stream) {
        this.output = (this.output + decoder.decode(chunk, { stream: true })).slice(-20_000);
      }
    };
    pump(this.child.stdout);
    pump(this.child.stderr);
    this.exited = this.child.status.then((status) => {
      this.exitedAt = performance.now();
      return status;
    });
  }

  get origin() {
    return `http://127.0.0.1:${this.port}`;
  }

  get alive() {
    return this.exitedAt === null;
  }

  async fetch(path: string, init: RequestInit = {}, timeoutMs = 10_000): Promise<Response> {
    return await fetch(this.origin + path, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  }

  async status(path: string, init: RequestInit = {}, timeoutMs = 10_000): Promise<number> {
    try {
      const res = await this.fetch(path, init, timeoutMs);
      await res.body?.cancel();
      return res.status;
    } catch {
      return 0;
    }
  }

  /** Posts a quote request; its status (0 when no answer). */
  quote(email: string): Promise<number> {
    return this.status("/api/deal/request", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": randomIp() },
      body: JSON.stringify(quoteRequest(email)),
    });
  }

  /** SIGTERM; the ms it took to exit (Infinity past `limitMs`). */
  async terminate(limitMs: number): Promise<{ ms: number; code: number | null }> {
    if (!this.alive) return { ms: Infinity, code: (await this.exited).code };
    const started = performance.now();
    this.child.kill("SIGTERM");
    const status = await Promise.race([this.exited, sleep(limitMs).then(() => null)]);
    if (!status) {
      this.child.kill("SIGKILL");
      await this.exited;
      return { ms: Infinity, code: null };
    }
    return { ms: performance.now() - started, code: status.code };
  }
}

let ipCounter = 0;
function randomIp() {
  ipCounter++;
  return `10.77.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 100) {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return false;
}

export async function runFaultScenario(
  options: ScenarioOptions,
): Promise<{ checks: Check[]; figures: Figures }> {
  const log = options.log ?? (() => {});
  const cutMs = options.cutMs ?? 15_000;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 8_000;
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail = "") => {
    checks.push({ name, ok, detail });
    log(`  ${ok ? "ok  " : "FAIL"} ${name}${detail ? ` (${detail})` : ""}`);
  };
  const admin = new URL(options.adminUrl);

  return await withFreshDatabase(options.adminUrl, "faults", async (_url, name) => {
    const smtp = await startFakeSmtp();
    const proxy = await startProxy(
      { host: admin.hostname, port: Number(admin.port || 5432) },
      options.ports[2] ?? 0,
    );
    const viaProxy = new URL(withDatabase(options.adminUrl, name));
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    const env = {
      DATABASE_URL: viaProxy.toString(),
      DEMO_DATA: "false",
      SMTP_URL: smtp.url,
      TRUST_PROXY: "1",
      QUOTE_REQUESTS_PER_HOUR: "10000",
      SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
      NO_COLOR: "1",
    };
    const sql = postgres(options.adminUrl, { max: 1, onnotice: () => {} });
    const instances: Instance[] = [];
    const samples: Sample[] = [];
    const figures: Figures = {
      readyAfterMs: [],
      cut: { requests: 0, refused503: 0, other: 0, maxMs: 0, over2s: 0, waiting: 0 },
      errors500: 0,
      unanswered: 0,
      requests: 0,
      shutdownMs: [],
    };
    let traffic = true;
    const clients: Promise<void>[] = [];
    try {
      // The first instance migrates the fresh database; the second starts on it.
      for (const port of options.ports.slice(0, 2) as number[]) {
        const instance = new Instance(port, env);
        instances.push(instance);
        const up = await until(
          async () => !instance.alive || (await instance.status("/readyz", {}, 2000)) === 200,
          90_000,
          250,
        ) && instance.alive;
        if (!up) throw new Error(`instance :${port} not ready:\n${instance.output}`);
      }
      log(
        `  two instances ready on ${options.ports.slice(0, 2).join(", ")} through the proxy :${proxy.port}`,
      );

      // A bounded client: 8 loops, each one request at a time, 20 ms apart, to either instance.
      for (let i = 0; i < 8; i++) {
        clients.push((async () => {
          let n = i;
          while (traffic) {
            const live = instances.filter((x) => x.alive);
            if (!live.length) break;
            const target = live[n++ % live.length];
            const start = performance.now();
            let status = 0;
            let retryAfter = false;
            try {
              const res = await target.fetch("/email/exists", {
                method: "POST",
                headers: { "content-type": "application/json", "x-forwarded-for": randomIp() },
                body: JSON.stringify({ email: `personne.${n}@example.fr` }),
              });
              status = res.status;
              retryAfter = res.headers.has("retry-after");
              await res.body?.cancel();
            } catch {
              status = 0;
            }
            samples.push({
              instance: instances.indexOf(target),
              start,
              ms: performance.now() - start,
              status,
              retryAfter,
            });
            await sleep(20);
          }
        })());
      }

      const quotes = new Map<string, number>();
      let quoteCount = 0;
      const quote = async (instance: Instance) => {
        const email = `panne.${++quoteCount}.${Date.now().toString(36)}@example.fr`;
        const status = await instance.quote(email);
        quotes.set(email, status);
        return { email, status };
      };

      await sleep(2000);
      const before = await quote(instances[0]);
      check(
        "a quote request before the faults is accepted",
        before.status === 200,
        `status ${before.status}`,
      );

      // Every backend of the database terminated, twice, under traffic.
      for (let round = 1; round <= 2; round++) {
        const [{ n }] = await sql<{ n: number }[]>`select count(pg_terminate_backend(pid))::int as n
          from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`;
        log(`  terminated ${n} backends (round ${round})`);
        await sleep(2000);
      }
      check(
        "both instances live through two rounds of pg_terminate_backend",
        instances.every((x) => x.alive),
        instances.map((x) => (x.alive ? "alive" : `dead: ${x.output.slice(-500)}`)).join(", "),
      );
      const afterTerminate = await quote(instances[1]);
      check(
        "a quote request after the terminations is accepted",
        afterTerminate.status === 200,
        `status ${afterTerminate.status}`,
      );

      // The network cut.
      proxy.cut();
      const cutAt = performance.now();
      log(`  network cut for ${cutMs / 1000} s`);
      await sleep(3000);
      const page = await instances[0].fetch("/", { headers: { accept: "text/html", cookie: "session=abc" } })
        .then(async (res) => ({
          status: res.status,
          retry: res.headers.get("retry-after"),
          body: await res.text(),
        }))
        .catch((error) => ({ status: 0, retry: null, body: String(error) }));
      check(
        "during the cut a page answers 503, Retry-After and the French message",
        page.status === 503 && !!page.retry &&
          page.body.includes(
            "Le service est momentanément indisponible, veuillez réessayer dans quelques instants.",
          ),
        `status ${page.status}`,
      );
      const api = await instances[1].fetch("/api/deal/request", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": randomIp() },
        body: JSON.stringify(quoteRequest("pendant.la.panne@example.fr")),
      }).then(async (res) => ({ status: res.status, json: await res.json().catch(() => null) }))
        .catch(() => ({ status: 0, json: null }));
      check(
        'during the cut the API answers 503 with status "error"',
        api.status === 503 && api.json?.status === "error",
        `status ${api.status}`,
      );
      const readyDuring = await Promise.all(instances.map((x) => x.status("/readyz", {}, 5000)));
      const liveDuring = await Promise.all(instances.map((x) => x.status("/healthz", {}, 2000)));
      check(
        "during the cut /readyz answers 503 and /healthz 200",
        readyDuring.every((s) => s === 503) && liveDuring.every((s) => s === 200),
        `readyz ${readyDuring.join(",")}, healthz ${liveDuring.join(",")}`,
      );
      await sleep(Math.max(0, cutAt + cutMs - performance.now()));

      proxy.restore();
      const restoredAt = performance.now();
      log("  network restored");
      figures.readyAfterMs = await Promise.all(instances.map(async (x) => {
        const ok = await until(async () => (await x.status("/readyz", {}, 2000)) === 200, 30_000, 100);
        return ok ? Math.round(performance.now() - restoredAt) : Infinity;
      }));
      check(
        "after the restore /readyz is 200 within 5 s on both instances",
        figures.readyAfterMs.every((ms) => ms <= 5000),
        `${figures.readyAfterMs.join(" ms, ")} ms`,
      );
      const after = await Promise.all(instances.map((x) => quote(x)));
      check(
        "quote requests after the restore are accepted",
        after.every((q) => q.status === 200),
        after.map((q) => q.status).join(", "),
      );
      const sentAt = performance.now();
      const delivered = await until(
        () => after.every((q) => smtp.received.some((m) => m.to.includes(q.email))),
        10_000,
      );
      check(
        "their emails reach the SMTP server within 10 s",
        delivered,
        delivered ? `${Math.round(performance.now() - sentAt)} ms` : "missing",
      );
      await sleep(Math.max(1000, restoredAt + 7000 - performance.now()));
      traffic = false;
      await Promise.all(clients);

      // Traffic: no 500 at all; during the cut, 503 with Retry-After within 2 s, never over 5 s.
      figures.requests = samples.length;
      figures.errors500 = samples.filter((s) => s.status >= 500 && s.status !== 503).length;
      const during = samples.filter((s) => s.start >= cutAt + 500 && s.start + s.ms <= restoredAt);
      const cut = figures.cut;
      cut.requests = during.length;
      cut.refused503 = during.filter((s) => s.status === 503 && s.retryAfter).length;
      cut.other = during.length - cut.refused503;
      cut.maxMs = Math.round(Math.max(0, ...during.map((s) => s.ms)));
      cut.over2s = during.filter((s) => s.ms > 2000).length;
      // Still waiting at the restore after more than 2 s (the 8 loops always have a request in flight).
      cut.waiting = samples.filter((s) => s.start < restoredAt - 2000 && s.start + s.ms > restoredAt).length;
      check(
        "no request answered 500 (or another 5xx than 503)",
        figures.errors500 === 0,
        `${figures.requests} requests`,
      );
      figures.unanswered = samples.filter((s) => s.status === 0).length;
      check("no request left without an answer for 10 s", figures.unanswered === 0, `${figures.unanswered}`);
      check(
        "during the cut every request answers 503 with Retry-After",
        cut.requests > 0 && cut.other === 0,
        `${cut.refused503}/${cut.requests}`,
      );
      check(
        "during the cut requests answer within 2 s (none over 5 s)",
        cut.requests > 0 && cut.over2s === 0 && cut.maxMs <= 5000,
        `max ${cut.maxMs} ms, ${cut.over2s} over 2 s`,
      );
      const settled = samples.filter((s) => s.start >= restoredAt + 5000);
      check(
        "from 5 s after the restore every request succeeds",
        settled.length > 0 && settled.every((s) => s.status === 200),
        `${settled.filter((s) => s.status === 200).length}/${settled.length}`,
      );

      // Emails: every accepted quote request's acknowledgement exactly once; nothing twice.
      await until(
        () =>
          [...quotes].every(([email, status]) =>
            status !== 200 || smtp.received.some((m) => m.to.includes(email))
          ),
        10_000,
      );
      const counts = new Map<string, number>();
      for (const m of smtp.received) for (const to of m.to) counts.set(to, (counts.get(to) ?? 0) + 1);
      const accepted = [...quotes].filter(([, status]) => status === 200).map(([email]) => email);
      const lost = accepted.filter((email) => !counts.get(email));
      const twice = [...counts].filter(([, n]) => n > 1).map(([email]) => email);
      check(
        "no email lost or sent twice",
        lost.length === 0 && twice.length === 0,
        `${accepted.length} accepted, lost: ${lost.join(" ") || "none"}, twice: ${twice.join(" ") || "none"}`,
      );

      // SIGTERM: the first instance at rest, the second in the middle of a slow SMTP send.
      const limit = shutdownTimeoutMs + 2000;
      const first = await instances[0].terminate(limit);
      figures.shutdownMs.push(Math.round(first.ms));
      check(
        `SIGTERM ends an instance within its deadline (${shutdownTimeoutMs} ms)`,
        first.ms <= shutdownTimeoutMs,
        `${Math.round(first.ms)} ms, exit ${first.code}`,
      );
      smtp.setMode({ kind: "accept", delayMs: 60_000 });
      const connections = smtp.connections;
      const slow = await quote(instances[1]);
      const sending = await until(() => smtp.connections > connections, 10_000);
      await sleep(300);
      const second = await instances[1].terminate(limit);
      figures.shutdownMs.push(Math.round(second.ms));
      check(
        "SIGTERM ends an instance within its deadline during a slow SMTP send",
        slow.status === 200 && sending && second.ms <= shutdownTimeoutMs,
        `quote ${slow.status}, send started ${sending}, ${Math.round(second.ms)} ms, exit ${second.code}`,
      );
      return { checks, figures };
    } catch (error) {
      check("the scenario ran to its end", false, String(error));
      return { checks, figures };
    } finally {
      traffic = false;
      for (const instance of instances) {
        if (instance.alive) {
          instance.child.kill("SIGKILL");
          await instance.exited;
        }
      }
      await Promise.all(clients);
      if (checks.some((c) => !c.ok)) {
        for (const instance of instances) {
          log(`--- output of :${instance.port}\n${instance.output.slice(-4000)}`);
        }
      }
      await proxy.close();
      await smtp.close();
      await sql.end({ timeout: 1 });
    }
  });
}
