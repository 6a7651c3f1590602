// Which wall a screen shows (embed, analytics): choosing one changes the
// URL, so the choice is a deep link.
import type { Wall } from '../api/client';
import { byName, Options, SelectField } from './fields';

export function WallPicker({ walls, value, link }: { walls: Wall[]; value: number; link(wallId: number): string }) {
  return (
    <SelectField
      label="Wall"
      value={value}
      onChange={(e) => {
        location.hash = link(Number(e.target.value));
      }}
    >
      <Options of={byName(walls)} />
    </SelectField>
  );
}
