// The photos of a deal (spec 001 §7): POST /api/deal/upload-photos/{id} (multipart photos[]),
// POST /api/deal/reorder-photos/{id} {photos}, DELETE /api/deal/photos/{id}/{photo}, and the files
// served under /media. Who may (admins and the deal's partner; not another partner, a customer or a
// visitor; not the partner while edits are locked), what is accepted (JPEG, PNG, WebP by their bytes,
// 8 MB each, 20 per deal), and that files come and go with their rows.
import sharp from "sharp";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, httpTest, ORIGIN, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { dealPhotoPath, memoryStorage, type Storage } from "../../lib/storage/storage.ts";
import { supabaseStorage } from "../../lib/storage/supabase.ts";
import { createApp } from "../../routes/_app.tsx";
import { uploadPhotos } from "../../lib/deals/use_cases/upload_photos.ts";
import { userActor } from "../../lib/actor.ts";
import type { UserType } from "../../lib/accounts/rules.ts";
import {
  batchBySize,
  displayName,
  movePhoto,
  notAnImage,
  parsePhotoRef,
  PHOTO_MAX_BYTES,
  PHOTO_MESSAGES,
  PHOTOS_MAX_PER_DEAL,
  photoTooBig,
  sniffImageType,
  tooManyPhotos,
} from "../../lib/deals/photos.ts";
import { AppError } from "../../lib/errors.ts";

const ADMIN = "admin@example.fr";
const PARTNER = "partenaire@example.fr";
const PARTNER2 = "partenaire2@example.fr";
const CUSTOMER = "client@example.fr";
const LOCKED = "Les modifications de ce devis sont désactivées par l'administrateur.";
const NOT_ALLOWED = "Vous n'avez pas le droit d'effectuer cette action sur ce devis.";
const NOT_FOUND = "Ce devis n'existe pas ou vous n'y avez pas accès.";
const UNAUTHENTICATED = "Veuillez vous connecter pour continuer.";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

let ipCounter = 0;
const freshIp = () => `10.77.${(++ipCounter >> 8) & 255}.${(ipCounter & 255) || 1}`;

async function signedIn(email: string): Promise<Client> {
  const client = new Client({ ip: freshIp() });
  await client.login(email);
  return client;
}

async function userId(email: string): Promise<string> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ id: string }>(db, "select id from public.users where email = $1", [
    email,
  ]);
  return row.id;
}

/** A deal requested through the API (by `requester`, a visitor by default), assigned to the demo
 * partner and sent to it by the admin. */
async function partnerDeal(requester?: Client): Promise<number> {
  const client = requester ?? new Client({ ip: freshIp() });
  const n = `${Date.now()}${++ipCounter}`;
  const res = await client.post("/api/deal/request", {
    type_d_evenement: "Anniversaire",
    deal_prestation_date: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
    horaire_souhaite: "19:00",
    nombre_de_participants: 40,
    duree_2_service: 180,
    ville: "Lyon",
    adresse_precise: "3 quai des Photos",
    distance_en_km: 10,
    bar_mobile: false,
    type_de_recette: "signature",
    creation_de_recette: false,
    description: "Test des photos",
    firstname: "Jeanne",
    lastname: `Photo${n}`,
    email: `photo.${n}@example.fr`,
    phone: `+3367${n.slice(-7)}`,
    consent: true,
  });
  assertEquals(res.status, 200, res.text);
  const token = res.json<Json>().results.token;
  const { db } = await testEnv();
  const [row] = await systemQuery<{ id: number }>(db, "select id from public.deals where token = $1", [
    token,
  ]);
  const admin = await signedIn(ADMIN);
  assertEquals((await admin.patch(`/api/deal/${row.id}`, { company: await userId(PARTNER) })).status, 200);
  assertEquals((await admin.post(`/api/deal/${row.id}/send-to-partner`)).status, 200);
  return Number(row.id);
}

interface Answer {
  status: number;
  text: string;
  headers: Headers;
  json: Json;
  bytes: Uint8Array;
}

/** A request with a multipart body (the test client sends JSON and forms only), sent with a
 * Content-Length as browsers do. */
async function send(client: Client | null, method: string, path: string, form?: FormData): Promise<Answer> {
  const { app } = await testEnv();
  const headers = new Headers({ accept: "application/json" });
  if (method !== "GET") headers.set("origin", ORIGIN);
  if (client?.cookies.size) {
    headers.set("cookie", [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  }
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (form) {
    const encoded = new Request(ORIGIN, { method: "POST", body: form });
    headers.set("content-type", encoded.headers.get("content-type")!);
    body = new Uint8Array(await encoded.arrayBuffer());
    headers.set("content-length", String(body.byteLength));
  }
  const res = await app.request(`${ORIGIN}${path}`, { method, headers, body }, {
    remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 40000 },
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let json: Json = {};
  try {
    json = JSON.parse(text);
  } catch { /* not JSON (media) */ }
  return { status: res.status, text, headers: res.headers, json, bytes };
}

interface TestFile {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

function upload(client: Client | null, dealId: number, files: TestFile[], field = "photos[]") {
  const form = new FormData();
  for (const f of files) {
    form.append(
      field,
      new File([f.bytes as Uint8Array<ArrayBuffer>], f.name, { type: f.type ?? "image/jpeg" }),
    );
  }
  return send(client, "POST", `/api/deal/upload-photos/${dealId}`, form);
}

const reorder = (client: Client | null, dealId: number, photos: string[]) =>
  client ? client.post(`/api/deal/reorder-photos/${dealId}`, { photos }) : new Client().post(
    `/api/deal/reorder-photos/${dealId}`,
    { photos },
  );

async function image(
  format: "jpeg" | "png" | "webp",
  options: { width?: number; height?: number; color?: string; exif?: boolean; orientation?: number } = {},
): Promise<Uint8Array> {
  let img = sharp({
    create: {
      width: options.width ?? 320,
      height: options.height ?? 240,
      channels: 3,
      background: options.color ?? "#d94f3d",
    },
  });
  if (options.exif) img = img.withExif({ IFD0: { Copyright: "Secret GPS 45.76N", Artist: "Jeanne" } });
  if (options.orientation) img = img.withMetadata({ orientation: options.orientation });
  return new Uint8Array(await img.toFormat(format).toBuffer());
}

async function stored(path: string) {
  const { deps } = await testEnv();
  return await deps.storage.get(path);
}

const fileNameOf = (url: string) => url.split("/").pop()!;

function expectError(
  answer: { status: number; text: string },
  status: number,
  message?: string | RegExp,
) {
  assertEquals(
    answer.status,
    status,
    `expected ${status}, got ${answer.status}: ${answer.text.slice(0, 300)}`,
  );
  const json = JSON.parse(answer.text);
  assertEquals(json.status, "error");
  if (typeof message === "string") assertEquals(json.message, message);
  else if (message) assertMatch(json.message, message);
  return json;
}

// ---------------------------------------------------------------------------------------------------

httpTest(
  "upload as the admin: re-encoded, metadata stripped, thumbnails made, served under /media",
  async () => {
    const dealId = await partnerDeal();
    const admin = await signedIn(ADMIN);
    const jpeg = await image("jpeg", { exif: true, orientation: 6, width: 300, height: 200 });
    assert((await sharp(jpeg).metadata()).exif, "the sent JPEG carries EXIF data");
    const res = await upload(admin, dealId, [
      { name: "salle.jpg", bytes: jpeg },
      { name: "bar.png", bytes: await image("png", { color: "#2f7ed8" }), type: "image/png" },
    ]);
    assertEquals(res.status, 200, res.text);
    assertEquals(res.json.status, "success");
    assertEquals(res.json.message, PHOTO_MESSAGES.uploaded);
    const { photos, photoItems } = res.json.results as { photos: string[]; photoItems: Json[] };
    assertEquals(photos.length, 2);
    assertEquals(photoItems.map((p) => p.url), photos);
    for (const url of photos) {
      assertMatch(
        url,
        new RegExp(`^/media/deals/${dealId}/[a-z0-9-]{36}\\.(jpg|png)$`),
      );
    }
    assert(photos[0].endsWith(".jpg") && photos[1].endsWith(".png"), "each keeps its own format, in order");

    // The stored JPEG: no EXIF left, the orientation applied (300×200 turned by 90°).
    const main = await stored(dealPhotoPath(dealId, fileNameOf(photos[0])));
    assert(main, "the photo is in storage");
    assertEquals(main.contentType, "image/jpeg");
    const meta = await sharp(main.data).metadata();
    assertEquals(meta.exif, undefined, "metadata stripped");
    assertEquals(meta.orientation, undefined);
    assertEquals([meta.width, meta.height], [200, 300]);
    const thumb = await stored(dealPhotoPath(dealId, fileNameOf(photos[0]), true));
    assert(thumb, "the thumbnail is in storage");
    const thumbMeta = await sharp(thumb.data).metadata();
    assertEquals([thumbMeta.width, thumbMeta.height, thumbMeta.format], [400, 300, "jpeg"]);
    assertEquals(photoItems[0].thumbUrl, `/media/deals/${dealId}/thumbs/${fileNameOf(photos[0])}`);

    // Served by the app: right type, cached for a year (names never change content).
    const served = await send(null, "GET", photos[1]);
    assertEquals(served.status, 200);
    assertEquals(served.headers.get("content-type"), "image/png");
    assertEquals(served.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assertEquals(served.headers.get("x-content-type-options"), "nosniff");
    assertEquals((await sharp(served.bytes).metadata()).format, "png");

    // The deal's payload lists them in the same order.
    const deal = (await admin.get(`/api/deal/get/${dealId}`)).json<Json>().results;
    assertEquals(deal.photos, photos);
  },
);

httpTest(
  "upload as the deal's partner (WebP, field 'photos' accepted too); added after the others",
  async () => {
    const dealId = await partnerDeal();
    const partner = await signedIn(PARTNER);
    const first = await upload(partner, dealId, [{
      name: "a.webp",
      bytes: await image("webp"),
      type: "image/webp",
    }]);
    assertEquals(first.status, 200, first.text);
    const second = await upload(partner, dealId, [{ name: "b.jpg", bytes: await image("jpeg") }], "photos");
    assertEquals(second.status, 200, second.text);
    const photos: string[] = second.json.results.photos;
    assertEquals(photos.length, 2);
    assertEquals(photos[0], first.json.results.photos[0], "new photos go after the existing ones");
    assert(photos[0].endsWith(".webp"));
    assertEquals((await stored(dealPhotoPath(dealId, fileNameOf(photos[0]))))?.contentType, "image/webp");
  },
);

httpTest("another partner, a customer and a visitor can neither upload, reorder nor delete", async () => {
  const customer = await signedIn(CUSTOMER);
  const dealId = await partnerDeal(customer); // the customer's own deal
  const admin = await signedIn(ADMIN);
  const added = await upload(admin, dealId, [{ name: "a.jpg", bytes: await image("jpeg") }]);
  const photos: string[] = added.json.results.photos;
  const jpeg = await image("jpeg");

  const other = await signedIn(PARTNER2);
  await expectError(await upload(other, dealId, [{ name: "x.jpg", bytes: jpeg }]), 404, NOT_FOUND);
  await expectError(await reorder(other, dealId, photos), 404, NOT_FOUND);
  await expectError(
    await send(other, "DELETE", `/api/deal/photos/${dealId}/${fileNameOf(photos[0])}`),
    404,
    NOT_FOUND,
  );

  await expectError(await upload(customer, dealId, [{ name: "x.jpg", bytes: jpeg }]), 403, NOT_ALLOWED);
  await expectError(await reorder(customer, dealId, photos), 403, NOT_ALLOWED);
  await expectError(
    await send(customer, "DELETE", `/api/deal/photos/${dealId}/${fileNameOf(photos[0])}`),
    403,
    NOT_ALLOWED,
  );

  await expectError(await upload(null, dealId, [{ name: "x.jpg", bytes: jpeg }]), 401, UNAUTHENTICATED);
  await expectError(await reorder(null, dealId, photos), 401, UNAUTHENTICATED);
  await expectError(
    await send(null, "DELETE", `/api/deal/photos/${dealId}/${fileNameOf(photos[0])}`),
    401,
    UNAUTHENTICATED,
  );

  // Nothing changed.
  const { db } = await testEnv();
  const rows = await systemQuery(db, "select id from public.deal_photos where deal_id = $1", [dealId]);
  assertEquals(rows.length, 1);
  assert(await stored(dealPhotoPath(dealId, fileNameOf(photos[0]))), "the photo is still there");
});

httpTest(
  "while edits are locked the partner is refused (upload, reorder, delete); the admin is not",
  async () => {
    const dealId = await partnerDeal();
    const admin = await signedIn(ADMIN);
    const partner = await signedIn(PARTNER);
    const before = await upload(partner, dealId, [
      { name: "a.jpg", bytes: await image("jpeg") },
      { name: "b.jpg", bytes: await image("jpeg", { color: "#3daa5c" }) },
    ]);
    assertEquals(before.status, 200, before.text);
    const photos: string[] = before.json.results.photos;
    assertEquals(
      (await admin.patch(`/api/deal/${dealId}`, { adminSettings: { disableQuoteEdits: true } })).status,
      200,
    );

    await expectError(
      await upload(partner, dealId, [{ name: "c.jpg", bytes: await image("jpeg") }]),
      409,
      LOCKED,
    );
    await expectError(await reorder(partner, dealId, [...photos].reverse()), 409, LOCKED);
    await expectError(
      await send(partner, "DELETE", `/api/deal/photos/${dealId}/${fileNameOf(photos[0])}`),
      409,
      LOCKED,
    );
    // The PATCH fields the lock protects, for comparison (already refused by the deals API).
    await expectError(await partner.patch(`/api/deal/${dealId}`, { description: "<p>x</p>" }), 409, LOCKED);

    const byAdmin = await upload(admin, dealId, [{ name: "c.jpg", bytes: await image("jpeg") }]);
    assertEquals(byAdmin.status, 200, byAdmin.text);
    const all: string[] = byAdmin.json.results.photos;
    assertEquals(all.length, 3);
    assertEquals((await reorder(admin, dealId, [...all].reverse())).status, 200);
    assertEquals(
      (await send(admin, "DELETE", `/api/deal/photos/${dealId}/${fileNameOf(all[0])}`)).status,
      200,
    );

    // Unlocked again: the partner may.
    assertEquals(
      (await admin.patch(`/api/deal/${dealId}`, { adminSettings: { disableQuoteEdits: false } })).status,
      200,
    );
    assertEquals(
      (await upload(partner, dealId, [{ name: "d.jpg", bytes: await image("jpeg") }])).status,
      200,
    );
  },
);

httpTest("the type is read from the bytes, not from the file's name or declared type", async () => {
  const dealId = await partnerDeal();
  const admin = await signedIn(ADMIN);
  const text = new TextEncoder().encode("Ceci n'est pas une image, même nommée .jpg");
  const refused = await upload(admin, dealId, [{ name: "photo.jpg", bytes: text, type: "image/jpeg" }]);
  const json = await expectError(refused, 422, notAnImage("photo.jpg"));
  assertEquals(json.errors.photos, notAnImage("photo.jpg"));
  // An SVG (script-capable) and a GIF, whatever they are called, are refused too.
  const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
  await expectError(
    await upload(admin, dealId, [{ name: "x.png", bytes: svg, type: "image/png" }]),
    422,
    notAnImage("x.png"),
  );
  const gif = new TextEncoder().encode("GIF89a\u0001\u0000\u0001\u0000");
  await expectError(await upload(admin, dealId, [{ name: "x.webp", bytes: gif, type: "image/webp" }]), 422);
  // A good file with a bad one: nothing is stored.
  const mixed = await upload(admin, dealId, [
    { name: "good.jpg", bytes: await image("jpeg") },
    { name: "bad.jpg", bytes: text },
  ]);
  await expectError(mixed, 422, notAnImage("bad.jpg"));
  // Magic bytes right, content broken: refused in French, not a 500.
  const broken = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, 3]);
  await expectError(await upload(admin, dealId, [{ name: "cassee.jpg", bytes: broken }]), 422, /cassee\.jpg/);
  // A PNG named .jpg and declared JPEG is stored as what it is.
  const png = await upload(admin, dealId, [{
    name: "vraie.jpg",
    bytes: await image("png"),
    type: "image/jpeg",
  }]);
  assertEquals(png.status, 200, png.text);
  assertEquals(png.json.results.photos.length, 1);
  assert(png.json.results.photos[0].endsWith(".png"));
  const { db } = await testEnv();
  const [row] = await systemQuery<{ contentType: string }>(
    db,
    `select content_type as "contentType" from public.deal_photos where deal_id = $1`,
    [dealId],
  );
  assertEquals(row.contentType, "image/png");
});

httpTest("a photo over 8 MB is refused with 413 and a French message", async () => {
  const dealId = await partnerDeal();
  const admin = await signedIn(ADMIN);
  const big = new Uint8Array(PHOTO_MAX_BYTES + 1024 * 1024);
  big.set([0xff, 0xd8, 0xff, 0xe0]);
  const res = await upload(admin, dealId, [{ name: "enorme.jpg", bytes: big }]);
  // Refused before being read: by the route's per-file rule, or by the app's request limit.
  await expectError(res, 413, new RegExp(`${photoTooBig("enorme.jpg")}|La requête est trop volumineuse\\.`));
  const { db } = await testEnv();
  assertEquals(
    (await systemQuery(db, "select 1 from public.deal_photos where deal_id = $1", [dealId])).length,
    0,
  );
});

httpTest("the per-file limit, checked by the use case: 413 naming the file", async () => {
  const dealId = await partnerDeal();
  const { deps } = await testEnv();
  const admin = await adminActor();
  const big = new Uint8Array(PHOTO_MAX_BYTES + 1);
  big.set([0xff, 0xd8, 0xff]);
  try {
    await uploadPhotos(deps, admin, dealId, { "photos[]": [new File([big], "C:\\Photos\\enorme.jpg")] });
    throw new Error("accepted");
  } catch (error) {
    assert(error instanceof AppError, String(error));
    assertEquals([error.status, error.message], [413, photoTooBig("enorme.jpg")]);
  }
});

httpTest(
  "a photo over the app's 1 MiB request limit is accepted (the upload route sets its own)",
  async () => {
    const dealId = await partnerDeal();
    const admin = await signedIn(ADMIN);
    // Noise does not compress: about 2 MB of JPEG.
    const noise = new Uint8Array(1600 * 1200 * 3).map(() => Math.floor(Math.random() * 256));
    const bytes = new Uint8Array(
      await sharp(noise, { raw: { width: 1600, height: 1200, channels: 3 } }).jpeg({ quality: 95 })
        .toBuffer(),
    );
    assert(bytes.byteLength > 1.5 * 1024 * 1024, `the photo weighs ${bytes.byteLength} bytes`);
    const res = await upload(admin, dealId, [{ name: "grande.jpg", bytes }]);
    assertEquals(
      res.status,
      200,
      `${
        res.text.slice(0, 200)
      } — lib/http/security.ts must leave POST /api/deal/upload-photos/:id to its route's limit`,
    );
    assertEquals(res.json.results.photos.length, 1);
  },
);

httpTest("at most 20 photos per deal; an upload with no files does nothing", async () => {
  const dealId = await partnerDeal();
  const admin = await signedIn(ADMIN);
  const tiny = await image("png", { width: 16, height: 16 });
  const files = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `p${i}.png`, bytes: tiny, type: "image/png" }));
  assertEquals((await upload(admin, dealId, files(18))).status, 200);
  const over = await upload(admin, dealId, files(3));
  await expectError(over, 422, tooManyPhotos(18));
  assertMatch(tooManyPhotos(18), /au plus 20 photos.*encore en ajouter 2/);
  const full = await upload(admin, dealId, files(2));
  assertEquals(full.json.results.photos.length, PHOTOS_MAX_PER_DEAL);

  const empty = await send(admin, "POST", `/api/deal/upload-photos/${dealId}`, new FormData());
  assertEquals(empty.status, 200, empty.text);
  assertEquals(empty.json.results.photos, full.json.results.photos);
  assertEquals(empty.json.message, undefined, "no success message when nothing was sent");
  // Empty file parts count as nothing too.
  const blank = await upload(admin, dealId, [{
    name: "",
    bytes: new Uint8Array(),
    type: "application/octet-stream",
  }]);
  assertEquals(blank.status, 200, blank.text);
  assertEquals(blank.json.results.photos.length, PHOTOS_MAX_PER_DEAL);
});

httpTest("reorder: by URLs or ids, the full list only; the new order is kept", async () => {
  const dealId = await partnerDeal();
  const partner = await signedIn(PARTNER);
  const added = await upload(partner, dealId, [
    { name: "1.jpg", bytes: await image("jpeg", { color: "#111111" }) },
    { name: "2.jpg", bytes: await image("jpeg", { color: "#222222" }) },
    { name: "3.jpg", bytes: await image("jpeg", { color: "#333333" }) },
  ]);
  const urls: string[] = added.json.results.photos;
  const ids: string[] = added.json.results.photoItems.map((p: Json) => p.id);

  // Dragging the third photo onto the first: [3, 1, 2], sent as URLs (the spec's list).
  const moved = await reorder(partner, dealId, [urls[2], urls[0], urls[1]]);
  assertEquals(moved.status, 200, moved.text);
  assertEquals(moved.json<Json>().message, PHOTO_MESSAGES.reordered);
  assertEquals(moved.json<Json>().results.photos, [urls[2], urls[0], urls[1]]);
  // Sent as ids, or as bare file names.
  const byIds = await reorder(partner, dealId, [ids[1], ids[2], ids[0]]);
  assertEquals(byIds.json<Json>().results.photos, [urls[1], urls[2], urls[0]]);
  const byNames = await reorder(partner, dealId, urls.map(fileNameOf));
  assertEquals(byNames.json<Json>().results.photos, urls);
  // Kept: the deal reads in that order.
  assertEquals((await partner.get(`/api/deal/get/${dealId}`)).json<Json>().results.photos, urls);

  // Anything but the full list of this deal's photos is refused, in French.
  for (
    const bad of [
      [urls[0], urls[1]],
      [urls[0], urls[0], urls[1]],
      [...urls, urls[0]],
      [urls[0], urls[1], "/media/deals/1/00000000-0000-0000-0000-000000000000.jpg"],
      [urls[0], urls[1], "javascript:alert(1)"],
    ]
  ) {
    await expectError(await reorder(partner, dealId, bad), 409, PHOTO_MESSAGES.orderMismatch);
  }
  await expectError(await partner.post(`/api/deal/reorder-photos/${dealId}`, { photos: 12 }), 422);
  await expectError(await partner.post(`/api/deal/reorder-photos/${dealId}`, {}), 422);
  assertEquals((await partner.get(`/api/deal/get/${dealId}`)).json<Json>().results.photos, urls, "unchanged");
});

httpTest("delete: by file name (the URL's last segment) or by id; the files leave storage", async () => {
  const dealId = await partnerDeal();
  const partner = await signedIn(PARTNER);
  const added = await upload(partner, dealId, [
    { name: "1.jpg", bytes: await image("jpeg") },
    { name: "2.jpg", bytes: await image("jpeg") },
  ]);
  const [first, second] = added.json.results.photoItems as Json[];
  const name = fileNameOf(first.url);
  assert(await stored(dealPhotoPath(dealId, name)), "in storage before");
  assert(await stored(dealPhotoPath(dealId, name, true)), "thumbnail in storage before");

  const deleted = await send(partner, "DELETE", `/api/deal/photos/${dealId}/${name}`);
  assertEquals(deleted.status, 200, deleted.text);
  assertEquals(deleted.json.message, PHOTO_MESSAGES.deleted);
  assertEquals(deleted.json.results.photos, [second.url]);
  assertEquals(await stored(dealPhotoPath(dealId, name)), null);
  assertEquals(await stored(dealPhotoPath(dealId, name, true)), null);
  assertEquals((await send(null, "GET", first.url)).status, 404);

  await expectError(
    await send(partner, "DELETE", `/api/deal/photos/${dealId}/${name}`),
    404,
    PHOTO_MESSAGES.notFound,
  );
  const byId = await send(partner, "DELETE", `/api/deal/photos/${dealId}/${second.id}`);
  assertEquals(byId.status, 200, byId.text);
  assertEquals(byId.json.results.photos, []);
  assertEquals(await stored(dealPhotoPath(dealId, fileNameOf(second.url))), null);

  // A photo of another deal cannot be deleted through this one.
  const otherDeal = await partnerDeal();
  const elsewhere = await upload(partner, otherDeal, [{ name: "3.jpg", bytes: await image("jpeg") }]);
  const foreign = elsewhere.json.results.photoItems[0];
  await expectError(await send(partner, "DELETE", `/api/deal/photos/${dealId}/${foreign.id}`), 404);
  await expectError(await send(partner, "DELETE", `/api/deal/photos/${dealId}/..%2F..%2Fsecret.jpg`), 404);
  assert(
    await stored(dealPhotoPath(otherDeal, fileNameOf(foreign.url))),
    "the other deal's photo is untouched",
  );
});

async function adminActor() {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ id: string; firstname: string; lastname: string }>(
    db,
    "select id, firstname, lastname from public.users where email = $1",
    [ADMIN],
  );
  return actorFor(row.id, "Admin", ADMIN);
}

function actorFor(id: string, type: UserType, email: string) {
  return userActor({ id, type, firstname: "T", lastname: "T", name: null, email }, "test-session");
}

httpTest("files written before a failed transaction are removed again", async () => {
  const dealId = await partnerDeal();
  const { deps, db } = await testEnv();
  const partner = actorFor(await userId(PARTNER), "Company", PARTNER);
  // Storage that records what it holds; once the files are written, the admin locks the deal, so
  // that the transaction that would add the rows is refused.
  const inner = memoryStorage();
  const paths = new Set<string>();
  let puts = 0;
  const storage: Storage = {
    ...inner,
    async put(path, data, type) {
      await inner.put(path, data, type);
      paths.add(path);
      if (++puts === 4) {
        await systemQuery(
          db,
          `update public.deals set admin_settings = admin_settings || '{"disableQuoteEdits": true}' where id = $1`,
          [dealId],
        );
      }
    },
    async remove(list) {
      await inner.remove(list);
      list.forEach((p) => paths.delete(p));
    },
  };
  const body = {
    "photos[]": [
      new File([await image("jpeg") as Uint8Array<ArrayBuffer>], "a.jpg"),
      new File([await image("jpeg") as Uint8Array<ArrayBuffer>], "b.jpg"),
    ],
  };
  let refused: unknown = null;
  try {
    await uploadPhotos({ ...deps, storage }, partner, dealId, body);
  } catch (error) {
    refused = error;
  }
  assert(refused instanceof AppError && refused.message === LOCKED, String(refused));
  assertEquals(puts, 4, "both photos and thumbnails were written");
  assertEquals([...paths], [], "and all four removed");
  assertEquals(
    (await systemQuery(db, "select 1 from public.deal_photos where deal_id = $1", [dealId])).length,
    0,
  );

  // A storage failure half-way removes what was written too.
  let calls = 0;
  const failing: Storage = {
    ...inner,
    async put(path, data, type) {
      if (++calls === 3) throw new Error("disque plein");
      await inner.put(path, data, type);
      paths.add(path);
    },
    async remove(list) {
      await inner.remove(list);
      list.forEach((p) => paths.delete(p));
    },
  };
  const admin = await adminActor();
  let failed = false;
  try {
    await uploadPhotos({ ...deps, storage: failing }, admin, dealId, body);
  } catch {
    failed = true;
  }
  assert(failed, "the upload failed");
  assertEquals([...paths], []);
});

httpTest("/media: 404 for what is absent, traversal and odd paths refused", async () => {
  for (
    const path of [
      "/media/deals/1/00000000-0000-0000-0000-000000000000.jpg",
      "/media/../deno.json",
      "/media/deals/..%2F..%2Fdeno.json",
      "/media/deals/%2e%2e/%2e%2e/deno.json",
      "/media/deals/1/../../x.jpg",
      "/media/DEALS/1/x.jpg",
      "/media/",
      "/media/deals//x.jpg",
    ]
  ) {
    const res = await send(null, "GET", path);
    assertEquals(res.status, 404, `${path}: ${res.status}`);
  }
});

httpTest("/media with Supabase Storage: the one own-media URL shape redirects to the bucket", async () => {
  const { deps } = await testEnv();
  const storage = supabaseStorage({ url: "https://abc.supabase.co", serviceRoleKey: "k", bucket: "photos" });
  const app = await createApp({ ...deps, storage });
  const get = (path: string) => app.request(`${ORIGIN}${path}`, { redirect: "manual" });
  const res = await get("/media/deals/3/0f3c2a1b-aaaa.webp");
  assertEquals(res.status, 302);
  assertEquals(
    res.headers.get("location"),
    "https://abc.supabase.co/storage/v1/object/public/photos/deals/3/0f3c2a1b-aaaa.webp",
  );
  for (
    const path of [
      "/media/deals/..%2Fx.jpg",
      "/media/a%20b.jpg",
      "/media/DEALS/1/x.jpg",
      "/media/deals//x.jpg",
      "/media/",
    ]
  ) {
    const refused = await get(path);
    assertEquals(refused.status, 404, path);
    await refused.body?.cancel();
  }
});

// ---------------------------------------------------------------------------------------------------
// The pure rules (lib/deals/photos.ts), shared by the island and the use cases.

Deno.test("photo rules: type by magic bytes only", async () => {
  assertEquals(sniffImageType(await image("jpeg")), "jpg");
  assertEquals(sniffImageType(await image("png")), "png");
  assertEquals(sniffImageType(await image("webp")), "webp");
  assertEquals(sniffImageType(new TextEncoder().encode("GIF89a......")), null);
  assertEquals(sniffImageType(new TextEncoder().encode("RIFF....WAVEfmt ")), null);
  assertEquals(sniffImageType(new TextEncoder().encode("<svg xmlns=")), null);
  assertEquals(sniffImageType(new Uint8Array([0xff, 0xd8])), null);
  assertEquals(sniffImageType(new Uint8Array()), null);
});

Deno.test("photo rules: a photo is named by its id, its file name or its URL", () => {
  const id = "3F2A1B4C-1111-4222-8333-444455556666";
  assertEquals(parsePhotoRef(id), { id: id.toLowerCase() });
  assertEquals(parsePhotoRef("0f3c2a1b-aaaa-bbbb.jpg"), { fileName: "0f3c2a1b-aaaa-bbbb.jpg" });
  assertEquals(parsePhotoRef("/media/deals/12/0f3c2a1b-aaaa.webp"), { fileName: "0f3c2a1b-aaaa.webp" });
  assertEquals(
    parsePhotoRef(
      "https://abc.supabase.co/storage/v1/object/public/deal-photos/deals/12/0f3c2a1b-aaaa.png?v=1",
    ),
    { fileName: "0f3c2a1b-aaaa.png" },
  );
  for (
    const bad of [
      "",
      "x.jpg",
      "../../etc/passwd",
      "0f3c2a1b-aaaa.gif",
      "0F3C2A1B-AAAA.JPG",
      "%E0%A4%A",
      "javascript:1",
    ]
  ) {
    assertEquals(parsePhotoRef(bad), null, bad);
  }
});

Deno.test("photo rules: batches, moves and names for messages", () => {
  const f = (size: number) => ({ size });
  assertEquals(batchBySize([f(10), f(10), f(10)], 25).map((b) => b.length), [2, 1]);
  assertEquals(batchBySize([f(40), f(10)], 25).map((b) => b.length), [1, 1]);
  assertEquals(batchBySize([], 25), []);
  assertEquals(movePhoto(["a", "b", "c"], 2, 0), ["c", "a", "b"]);
  assertEquals(movePhoto(["a", "b", "c"], 0, 2), ["b", "c", "a"]);
  const same = ["a", "b"];
  assertEquals(movePhoto(same, 1, 1) === same && movePhoto(same, 0, 5) === same, true);
  assertEquals(displayName("C:\\Photos\\vacances.jpg"), "vacances.jpg");
  assertEquals(displayName("a\u0000b\u001f.jpg"), "ab.jpg");
  assertEquals(displayName(""), "sans nom");
});
