// The Supabase Storage adapter against a local fake of the Storage HTTP API, with the real
// @supabase/supabase-js in the path: the fake answers the endpoints the library calls (upload an
// object, download it, remove objects, and the public URL it builds).
import { assert, assertEquals, assertRejects } from "../../tests/support/assert.ts";
import { DEFAULT_BUCKET, supabaseStorage } from "./supabase.ts";
import { openStorage } from "./open.ts";

const KEY = "service-role-key-for-tests";

interface StoredObject {
  data: Uint8Array<ArrayBuffer>;
  contentType: string;
  cacheControl: string | null;
}

/** A fake Supabase Storage API (the routes storage-js calls), on 127.0.0.1 and a free port. */
function fakeStorage() {
  const objects = new Map<string, StoredObject>();
  const calls: string[] = [];
  const unauthorised: string[] = [];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const missing = () => json({ statusCode: "404", error: "not_found", message: "Object not found" }, 400);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    const path = decodeURIComponent(url.pathname);
    calls.push(`${request.method} ${path}`);
    const publicMatch = /^\/storage\/v1\/object\/public\/(.+)$/.exec(path);
    if (request.method === "GET" && publicMatch) {
      const object = objects.get(publicMatch[1]);
      return object
        ? new Response(object.data, { headers: { "content-type": object.contentType } })
        : missing();
    }
    if (
      request.headers.get("authorization") !== `Bearer ${KEY}` || request.headers.get("apikey") !== KEY
    ) {
      unauthorised.push(`${request.method} ${path}`);
      return json({ statusCode: "403", error: "Unauthorized", message: "Invalid key" }, 403);
    }
    const match = /^\/storage\/v1\/object\/(.+)$/.exec(path);
    if (!match) return json({ statusCode: "404", error: "not_found", message: "No route" }, 404);
    const key = match[1];
    if (request.method === "POST") {
      if (objects.has(key) && request.headers.get("x-upsert") !== "true") {
        return json({ statusCode: "409", error: "Duplicate", message: "The resource already exists" }, 400);
      }
      objects.set(key, {
        data: new Uint8Array(await request.arrayBuffer()),
        contentType: request.headers.get("content-type") ?? "",
        cacheControl: request.headers.get("cache-control"),
      });
      return json({ Id: crypto.randomUUID(), Key: key });
    }
    if (request.method === "GET") {
      const object = objects.get(key);
      return object
        ? new Response(object.data, { headers: { "content-type": object.contentType } })
        : missing();
    }
    if (request.method === "DELETE") {
      const { prefixes } = await request.json() as { prefixes: string[] };
      const removed = prefixes.filter((p) => objects.delete(`${key}/${p}`));
      return json(removed.map((name) => ({ name, bucket_id: key })));
    }
    return json({ statusCode: "405", error: "Method", message: "Not allowed" }, 405);
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, objects, calls, unauthorised, close: () => server.shutdown() };
}

Deno.test("Supabase Storage: upload, public URL, download, remove, through supabase-js", async () => {
  const fake = fakeStorage();
  try {
    const storage = supabaseStorage({ url: fake.origin, serviceRoleKey: KEY, bucket: "photos-test" });
    assertEquals(storage.kind, "supabase");
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]);
    await storage.put("deals/7/0f3c2a1b-aaaa.jpg", bytes, "image/jpeg");

    const stored = fake.objects.get("photos-test/deals/7/0f3c2a1b-aaaa.jpg");
    assert(stored, "the object is in the bucket under its path");
    assertEquals([...stored.data], [...bytes]);
    assertEquals(stored.contentType, "image/jpeg");
    assertEquals(stored.cacheControl, "max-age=31536000");

    const url = storage.publicUrl("deals/7/0f3c2a1b-aaaa.jpg");
    assertEquals(url, `${fake.origin}/storage/v1/object/public/photos-test/deals/7/0f3c2a1b-aaaa.jpg`);
    const served = await fetch(url);
    assertEquals(served.status, 200);
    assertEquals([...new Uint8Array(await served.arrayBuffer())], [...bytes]);

    const read = await storage.get("deals/7/0f3c2a1b-aaaa.jpg");
    assertEquals(read && [...read.data], [...bytes]);
    assertEquals(await storage.get("deals/7/absent-0000.jpg"), null);

    // The same name is never overwritten: names are unique, a clash is an error.
    await assertRejects(() => storage.put("deals/7/0f3c2a1b-aaaa.jpg", bytes, "image/jpeg"));

    await storage.put("deals/7/thumbs/0f3c2a1b-aaaa.jpg", bytes, "image/jpeg");
    await storage.remove(["deals/7/0f3c2a1b-aaaa.jpg", "deals/7/thumbs/0f3c2a1b-aaaa.jpg"]);
    assertEquals(fake.objects.size, 0);
    assertEquals(await storage.get("deals/7/0f3c2a1b-aaaa.jpg"), null);
    await storage.remove([]);

    assertEquals(fake.unauthorised, [], "every call carries the service role key");
    assert(fake.calls.includes("DELETE /storage/v1/object/photos-test"), "remove uses the bulk endpoint");
  } finally {
    await fake.close();
  }
});

Deno.test("Supabase Storage: paths are checked before any call; errors are thrown", async () => {
  const fake = fakeStorage();
  try {
    const storage = supabaseStorage({ url: fake.origin, serviceRoleKey: KEY });
    assert(storage.publicUrl("deals/1/abcdefgh.png").includes(`/object/public/${DEFAULT_BUCKET}/`));
    await assertRejects(() => storage.put("../etc/passwd", new Uint8Array([1]), "image/png"));
    await assertRejects(() => storage.put("deals/1//x.png", new Uint8Array([1]), "image/png"));
    assertEquals(fake.calls, []);
    const wrongKey = supabaseStorage({ url: fake.origin, serviceRoleKey: "wrong" });
    await assertRejects(() => wrongKey.put("deals/1/abcdefgh.png", new Uint8Array([1]), "image/png"));
    await assertRejects(() => wrongKey.remove(["deals/1/abcdefgh.png"]));
  } finally {
    await fake.close();
  }
});

Deno.test("openStorage: Supabase when configured, else memory or a local folder", () => {
  const base = { dataDir: "memory://", uploadsDir: "" };
  assertEquals(openStorage(base).kind, "memory");
  assertEquals(openStorage({ ...base, dataDir: "./data/pglite" }).kind, "local");
  assertEquals(openStorage({ ...base, supabaseUrl: "http://127.0.0.1:1" }).kind, "memory");
  const supabase = openStorage({
    ...base,
    supabaseUrl: "https://abc.supabase.co",
    supabaseServiceRoleKey: KEY,
    supabaseStorageBucket: "photos",
  });
  assertEquals(supabase.kind, "supabase");
  assertEquals(
    supabase.publicUrl("deals/3/abcdefgh.webp"),
    "https://abc.supabase.co/storage/v1/object/public/photos/deals/3/abcdefgh.webp",
  );
});
