// The report of the range as a CSV file: fetched with the token in its
// header, then handed to the browser as a blob to save (the token never goes
// into a URL).
import { useState } from 'react';
import { fetchAnalyticsCsv, type DayRange } from '../../api/queries/analytics';
import { Button, ErrorNote } from '../../ui/kit';

function saveFile(blob: Blob, name: string) {
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

export function DownloadCsv({
  wallId,
  range,
  onSaved,
}: {
  wallId: number;
  range: DayRange;
  onSaved(name: string): void;
}) {
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const download = async () => {
    setDownloading(true);
    setError(null);
    try {
      const { name, blob } = await fetchAnalyticsCsv(wallId, range);
      saveFile(blob, name);
      onSaved(name);
    } catch (err) {
      setError(err);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <>
      <div className="form-actions">
        <Button onClick={() => void download()} disabled={downloading}>
          Download CSV
        </Button>
      </div>
      <ErrorNote error={error} title="The CSV could not be downloaded" />
    </>
  );
}
