// Vitest setup of every test file: a test (or, for answers received outside
// any test, the file) fails when an answer it received departed from the
// OpenAPI document (see conformance.ts).
import { afterAll, afterEach } from 'vitest';
import { takeViolations } from './violations.js';

function failOnViolations(): void {
  const found = takeViolations();
  if (found.length === 0) return;
  const shown = found.slice(0, 20).join('\n  ');
  const more = found.length > 20 ? `\n  … and ${found.length - 20} more` : '';
  throw new Error(`${found.length} answer(s) departed from the OpenAPI document:\n  ${shown}${more}`);
}

afterEach(failOnViolations);
afterAll(failOnViolations);
