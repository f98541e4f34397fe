// SQL of a deal's photo gallery, taking the use case's transaction: RLS decides who reads, adds, moves
// or deletes a photo (admins and the deal's partner change them; the deal's customer reads them).
import type { Tx } from "../db/database.ts";

export interface PhotoRow {
  id: string;
  fileName: string;
  position: number;
}

export function listPhotos(tx: Tx, dealId: number): Promise<PhotoRow[]> {
  return tx<PhotoRow>`select id, file_name as "fileName", position from public.deal_photos
                      where deal_id = ${dealId} order by position, created_at`;
}

export async function countPhotos(tx: Tx, dealId: number): Promise<{ count: number; next: number }> {
  const [row] = await tx<{ count: number; next: number }>`
    select count(*)::int as count, coalesce(max(position) + 1, 0)::int as next
    from public.deal_photos where deal_id = ${dealId}`;
  return row;
}

export interface NewPhoto {
  position: number;
  fileName: string;
  contentType: string;
  size: number;
  width: number;
  height: number;
}

export async function insertPhoto(tx: Tx, dealId: number, photo: NewPhoto): Promise<void> {
  await tx`insert into public.deal_photos (deal_id, position, file_name, content_type, size, width, height)
           values (${dealId}, ${photo.position}, ${photo.fileName}, ${photo.contentType},
                   ${photo.size}, ${photo.width}, ${photo.height})`;
}

export async function movePhoto(tx: Tx, dealId: number, photoId: string, position: number): Promise<void> {
  await tx`update public.deal_photos set position = ${position} where id = ${photoId} and deal_id = ${dealId}`;
}

/** Deletes a photo by its id or its file name; returns its file name, or null when none matched. */
export async function deletePhotoRow(
  tx: Tx,
  dealId: number,
  ref: { id: string } | { fileName: string },
): Promise<string | null> {
  const [deleted] = "id" in ref
    ? await tx<
      { fileName: string }
    >`delete from public.deal_photos where deal_id = ${dealId} and id = ${ref.id}
                                      returning file_name as "fileName"`
    : await tx<{ fileName: string }>`delete from public.deal_photos where deal_id = ${dealId}
                                        and file_name = ${ref.fileName} returning file_name as "fileName"`;
  return deleted?.fileName ?? null;
}
