import { ScreenTitle } from '../ui/kit';

export function Feeds({ wallId }: { wallId: number }) {
  return <ScreenTitle>Feeds of wall {wallId}</ScreenTitle>;
}
