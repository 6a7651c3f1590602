// The evidence report: every post the account asked about, with the
// request's and the answer's links and times and who decided, filtered by
// wall and state; "Download CSV" and "Download PDF" fetch it with the token
// in its header and hand the browser a blob to save (the token never goes
// into a URL).
import { useState } from 'react';
import { useAccountWalls } from '../../api/queries/walls';
import { fetchRightsReportFile, useRightsReport, type ReportFormat, type ReportQuery } from '../../api/queries/rights';
import { Options, SelectField } from '../../ui/fields';
import { Button, DataTable, ErrorNote, QueryRows, When } from '../../ui/kit';
import { RIGHTS_TONE, RIGHTS_WORDS } from './words';
import { saveFile } from '../../ui/save-file';

const STATES = [['', 'Every state'], ...Object.entries(RIGHTS_WORDS)] as const;

const external = (url: string) => (/^https?:\/\//i.test(url) ? url : null);

export function RightsReportPanel({ accountId, say }: { accountId: number; say(message: string): void }) {
  const [wallId, setWallId] = useState('');
  const [state, setState] = useState('');
  const query: ReportQuery = {
    ...(wallId ? { wallId } : {}),
    ...(state ? { state: state as NonNullable<ReportQuery['state']> } : {}),
  };
  const report = useRightsReport(accountId, query);
  const { walls } = useAccountWalls(accountId);
  const rows = report.data?.rows ?? [];
  const [downloading, setDownloading] = useState<ReportFormat | null>(null);
  const [error, setError] = useState<{ format: ReportFormat; error: unknown } | null>(null);
  const download = async (format: ReportFormat) => {
    setDownloading(format);
    setError(null);
    try {
      const { name, blob } = await fetchRightsReportFile(accountId, query, format);
      saveFile(blob, name);
      say(`Saved ${name}.`);
    } catch (err) {
      setError({ format, error: err });
    } finally {
      setDownloading(null);
    }
  };
  return (
    <section className="panel" aria-labelledby="rights-report-title">
      <h2 id="rights-report-title">Evidence report</h2>
      <div className="rights-report-bar">
        <SelectField label="Wall" value={wallId} onChange={(e) => setWallId(e.target.value)}>
          <Options of={[['', 'Every wall'], ...walls.map((w) => [String(w.id), w.name] as const)]} />
        </SelectField>
        <SelectField label="State" value={state} onChange={(e) => setState(e.target.value)}>
          <Options of={STATES} />
        </SelectField>
        <div className="form-actions">
          <Button onClick={() => void download('csv')} disabled={downloading !== null}>
            Download CSV
          </Button>
          <Button onClick={() => void download('pdf')} disabled={downloading !== null}>
            Download PDF
          </Button>
        </div>
      </div>
      <ErrorNote error={error?.error} title={`The ${error?.format.toUpperCase() ?? ''} could not be downloaded`} />
      <QueryRows
        query={report}
        what="the report"
        rows={rows}
        empty={<p>No requests yet: ask for a post’s rights in a wall’s queue or on the post’s page.</p>}
      >
        <DataTable
          className="grid-table rights-report-table"
          caption="Rights requests and their answers, oldest request first"
          columns={['Author', 'State', 'Asked', 'Answered']}
        >
          {rows.map((r) => (
            <tr key={r.postId} data-post-id={r.postId}>
              <th scope="row">
                {r.authorName || r.author}
                <span className="sub">
                  {r.author} ·{' '}
                  {external(r.postUrl) ? (
                    <a href={r.postUrl} rel="noopener noreferrer" target="_blank">
                      post<span className="sr-only"> by {r.authorName || r.author} (opens in a new tab)</span>
                    </a>
                  ) : (
                    `post ${r.postId}`
                  )}
                </span>
              </th>
              <td data-label="State">
                <span className={`badge ${RIGHTS_TONE[r.state]}`}>{RIGHTS_WORDS[r.state]}</span>
              </td>
              <td data-label="Asked">
                <When iso={r.requestedAt} /> {r.method === 'manual' ? 'by hand' : 'by a reply'}{' '}
                {external(r.requestUrl) && (
                  <a href={r.requestUrl} rel="noopener noreferrer" target="_blank">
                    request<span className="sr-only"> to {r.author} (opens in a new tab)</span>
                  </a>
                )}
              </td>
              <td data-label="Answered">
                <When iso={r.answeredAt} empty="—" />{' '}
                {external(r.answerUrl) && (
                  <a href={r.answerUrl} rel="noopener noreferrer" target="_blank">
                    answer<span className="sr-only"> by {r.author} (opens in a new tab)</span>
                  </a>
                )}
                {r.decidedBy && r.decidedBy !== 'reply' && <span className="sub">recorded by {r.decidedBy}</span>}
              </td>
            </tr>
          ))}
        </DataTable>
      </QueryRows>
    </section>
  );
}
