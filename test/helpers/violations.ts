// Departures from the OpenAPI document found by the conformance hook
// (conformance.ts), kept until the test's end (conformance-setup.ts). Its own
// small module, so that files that never call the API load no validator.
const found: string[] = [];

export function recordViolations(list: readonly string[]): void {
  found.push(...list);
}

/** The departures recorded since the last call (and forgets them). */
export function takeViolations(): string[] {
  return found.splice(0);
}
