import { ScreenTitle } from '../ui/kit';

export function Queue({ wallId }: { wallId: number }) {
  return <ScreenTitle>Queue of wall {wallId}</ScreenTitle>;
}
