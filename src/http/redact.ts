// Secrets never reach the logs: user_key (and publishable key) values are replaced in logged URLs.
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:user_key|key)=)[^&#]*/gi, '$1[REDACTED]');
}
