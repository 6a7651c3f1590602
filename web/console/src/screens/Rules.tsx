import { ScreenTitle } from '../ui/kit';

export function Rules({ wallId }: { wallId: number }) {
  return <ScreenTitle>Rules of wall {wallId}</ScreenTitle>;
}
