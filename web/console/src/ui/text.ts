// Posts are untrusted input: their HTML is parsed into an inert document
// and only its text is shown, never its markup.
export const plainText = (html: string): string =>
  new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
