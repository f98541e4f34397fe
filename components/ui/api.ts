// Browser helper used by islands: JSON requests to the app's API with French error messages.
export interface ApiFailure {
  message?: string;
  error?: string;
  errors?: Record<string, string>;
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly body: ApiFailure) {
    super(body.message ?? body.error ?? `HTTP ${status}`);
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? { accept: "application/json" } : {
      accept: "application/json",
      "content-type": "application/json",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data as ApiFailure);
  return data as T;
}

/** POSTs one form field (the spec's /email/exists and /phone/exists shape). */
export async function postField(path: string, name: string, value: string): Promise<Record<string, unknown>> {
  const form = new URLSearchParams({ [name]: value });
  const response = await fetch(path, { method: "POST", credentials: "same-origin", body: form });
  return response.ok ? await response.json() : {};
}
