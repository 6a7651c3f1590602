// Which product to place next (those not on the post yet), and placing it in
// the middle of the picture: the keyboard's way, then moved with the arrows.
import type { Product } from '../../api/records';
import { Options, SelectField } from '../../ui/fields';
import { Button } from '../../ui/kit';
import { price } from '../Products';

export function PlaceBar({
  untagged,
  chosen,
  placing,
  onChoose,
  onPlaceInMiddle,
}: {
  untagged: Product[];
  chosen: number;
  placing: boolean;
  onChoose(productId: string): void;
  onPlaceInMiddle(): void;
}) {
  return (
    <div className="place-bar">
      <SelectField
        label="Product to place"
        value={chosen || ''}
        onChange={(e) => onChoose(e.target.value)}
        hint="Click on the picture where it shows, or place it in the middle and move it with the arrow keys."
        disabled={untagged.length === 0}
      >
        {untagged.length === 0 && <option value="">Every product is placed</option>}
        <Options of={untagged.map((p) => [p.id, `${p.name} (${price(p)})`])} />
      </SelectField>
      <Button onClick={onPlaceInMiddle} disabled={!chosen || placing}>
        Place in the middle
      </Button>
    </div>
  );
}
