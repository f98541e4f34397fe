// The logs page's alerts, pure: the worker's stall (lib/health/stall.ts) and the dead letters.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { deadLetterAlerts, durationText, workerAlert } from "./alerts.ts";
import { workerStall } from "../health/stall.ts";

const NOW = Date.UTC(2026, 10, 28, 10, 0, 0);

Deno.test("workerStall: stalled only past the threshold, counted from the start before any beat", () => {
  assertEquals(workerStall({ lastWorkerBeat: NOW - 299_000 }, 300, NOW, NOW - 3_600_000), {
    stalled: false,
    silentSeconds: 299,
    never: false,
  });
  assertEquals(workerStall({ lastWorkerBeat: NOW - 301_000 }, 300, NOW).stalled, true);
  assertEquals(workerStall({ lastWorkerBeat: null }, 300, NOW, NOW - 60_000), {
    stalled: false,
    silentSeconds: 60,
    never: true,
  });
  assertEquals(workerStall({ lastWorkerBeat: null }, 300, NOW, NOW - 600_000).stalled, true);
});

Deno.test("workerAlert: none while the worker beats, an error message in French once stalled", () => {
  assertEquals(workerAlert({ stalled: false, silentSeconds: 10, never: false }, 300), null);
  const alert = workerAlert({ stalled: true, silentSeconds: 754, never: false }, 300)!;
  assertEquals(alert.kind, "worker-stalled");
  assertEquals(
    alert.message,
    "Le worker ne traite plus les files : dernier passage il y a 12 min (seuil : 5 min).",
  );
  const never = workerAlert({ stalled: true, silentSeconds: 7_500, never: true }, 300)!;
  assertEquals(
    never.message,
    "Le worker n'a traité aucune file depuis le démarrage, il y a 2 h 05 (seuil : 5 min).",
  );
});

Deno.test("deadLetterAlerts: one per queue with failed jobs, the outbox's latest jobs attached", () => {
  const recent = [
    { id: 7, queue: "crm-sync", attempts: 8, lastError: "HTTP 500", failedAt: 1_800_000_000 },
    { id: 9, queue: "order-settle", attempts: 1, lastError: null, failedAt: 1_800_000_100 },
  ];
  const alerts = deadLetterAlerts([
    { store: "outbox", queue: "crm-sync", failed: 1 },
    { store: "outbox", queue: "seat-offer-mail", failed: 0 },
    { store: "table", queue: "email", failed: 3 },
  ], recent);
  assertEquals(alerts.map((a) => [a.kind, a.queue]), [["dead-letters", "crm-sync"], [
    "dead-letters",
    "email",
  ]]);
  assertEquals(
    alerts[0].message,
    "1 tâche en échec définitif dans la file « crm-sync » (à relancer depuis la file de tâches).",
  );
  assertEquals(alerts[0].jobs, [recent[0]]);
  assertEquals(alerts[1].message, "3 tâches en échec définitif dans la file « email ».");
  assert(!("jobs" in alerts[1]));
  assertEquals(deadLetterAlerts([{ store: "table", queue: "email", failed: 0 }], []), []);
});

Deno.test("durationText", () => {
  assertEquals(durationText(45), "45 s");
  assertEquals(durationText(300), "5 min");
  assertEquals(durationText(3_660), "1 h 01");
  assertEquals(durationText(2 * 86_400 + 4 * 3600 + 59), "2 j 4 h");
});
