// Hands the browser a fetched file to save (a CSV report fetched with the
// token in its header: the token never goes into a URL).
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // the download has its own copy once it started; the next task is late enough
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
