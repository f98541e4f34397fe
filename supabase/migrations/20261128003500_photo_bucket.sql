-- The deal photos' bucket in Supabase Storage (lib/storage/supabase.ts; SUPABASE_STORAGE_BUCKET, default
-- 'deal-photos'), created here rather than by hand: public (pages link to its public URLs; uploads go
-- through the app with the service role key, after the app's own checks), at most 8 MB a file (the app
-- re-encodes every photo below its own 8 MB limit) and only the three image types the app stores.
-- A no-op where there is no Storage (plain PostgreSQL, PGlite): the storage schema belongs to Supabase.
-- A bucket made by hand before keeps its public flag and the limits it already has.
do $$
begin
  if to_regclass('storage.buckets') is null then
    return;
  end if;
  insert into storage.buckets (id, name, public) values ('deal-photos', 'deal-photos', true)
  on conflict (id) do nothing;
  -- Older Storage versions have no limits columns.
  if exists (
    select from information_schema.columns
    where table_schema = 'storage' and table_name = 'buckets' and column_name = 'file_size_limit'
  ) then
    execute $sql$update storage.buckets set file_size_limit = 8388608
      where id = 'deal-photos' and file_size_limit is null$sql$;
  end if;
  if exists (
    select from information_schema.columns
    where table_schema = 'storage' and table_name = 'buckets' and column_name = 'allowed_mime_types'
  ) then
    execute $sql$update storage.buckets set allowed_mime_types = array['image/jpeg', 'image/png', 'image/webp']
      where id = 'deal-photos' and allowed_mime_types is null$sql$;
  end if;
end
$$;
