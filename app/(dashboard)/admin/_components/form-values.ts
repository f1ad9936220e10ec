/** The optional expiry of a key form (a datetime-local field named expiresAt), as the API takes it. */
export function expiresAtValue(form: FormData): { expiresAt?: string } {
  const expires = String(form.get("expiresAt") ?? "");
  return expires ? { expiresAt: new Date(expires).toISOString() } : {};
}
