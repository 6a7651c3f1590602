// Which wall and which days: the wall (a deep link), the last 7, 30 or 90
// days or a range of one's own (checked here before the API is asked), and
// the CSV of what is shown.
import { useState } from 'react';
import type { ApiError, Wall } from '../../api/client';
import type { DayRange } from '../../api/queries/analytics';
import { href } from '../../router';
import { TextField } from '../../ui/fields';
import { onSubmit } from '../../ui/form';
import { Button } from '../../ui/kit';
import { WallPicker } from '../../ui/WallPicker';
import { DownloadCsv } from './DownloadCsv';
import { lastDays, PRESETS, rangeErrors, type Preset, type RangeErrors } from './range';

const ENDS = [
  ['from', 'From'],
  ['to', 'To'],
] as const;

export function RangeControls({
  wall,
  walls,
  preset,
  range,
  apiError,
  onPreset,
  onRange,
  onSaid,
}: {
  wall: Wall;
  walls: Wall[];
  preset: Preset;
  range: DayRange;
  /** the report's refusal, whose fieldErrors name `from` and `to` */
  apiError: ApiError | null;
  onPreset(preset: Preset): void;
  onRange(range: DayRange): void;
  onSaid(message: string): void;
}) {
  const [draft, setDraft] = useState<DayRange>(range);
  const [draftErrors, setDraftErrors] = useState<RangeErrors>({});
  const choose = (p: Preset) => {
    onPreset(p);
    if (p !== 'custom') onRange(lastDays(Number(p)));
    else setDraft(range);
  };
  const applyCustom = onSubmit(() => {
    const errors = rangeErrors(draft);
    setDraftErrors(errors);
    if (Object.keys(errors).length === 0) onRange(draft);
  });
  return (
    <div className="panel analytics-controls">
      <WallPicker walls={walls} value={wall.id} link={href.analytics} />
      <fieldset className="range">
        <legend>Days</legend>
        {PRESETS.map((p) => (
          <label key={p}>
            <input type="radio" name="range" checked={preset === p} onChange={() => choose(p)} /> Last {p} days
          </label>
        ))}
        <label>
          <input type="radio" name="range" checked={preset === 'custom'} onChange={() => choose('custom')} /> From … to
          …
        </label>
      </fieldset>
      {preset === 'custom' && (
        <form className="range-custom" onSubmit={applyCustom} noValidate>
          {ENDS.map(([end, label]) => (
            <TextField
              key={end}
              label={label}
              type="date"
              value={draft[end]}
              onChange={(e) => setDraft({ ...draft, [end]: e.target.value })}
              error={draftErrors[end] ?? apiError?.forField(end)}
            />
          ))}
          <div className="form-actions">
            <Button type="submit" variant="primary">
              Show these days
            </Button>
          </div>
        </form>
      )}
      <DownloadCsv wallId={wall.id} range={range} onSaved={(name) => onSaid(`Downloaded ${name}.`)} />
    </div>
  );
}
