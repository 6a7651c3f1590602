// The report of the range as a CSV file: fetched with the token in its
// header, then handed to the browser as a blob to save (the token never goes
// into a URL).
import { useState } from 'react';
import { fetchAnalyticsCsv, type DayRange } from '../../api/queries/analytics';
import { Button, ErrorNote } from '../../ui/kit';
import { saveFile } from '../../ui/save-file';

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
