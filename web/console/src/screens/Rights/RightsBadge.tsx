// A post's rights in a badge or two, beside its other badges: its state in
// words ("Rights granted") and, when its wall requires rights it lacks,
// "Held: needs rights". A post never asked on a wall that requires nothing
// shows none.
import type { Post } from '../../api/client';
import { HELD_WORDS, RIGHTS_TONE, RIGHTS_WORDS } from './words';
import './Rights.css';

export function RightsBadge({ rights }: { rights: Post['rights'] }) {
  return (
    <>
      {rights.state && (
        <span className={`badge ${RIGHTS_TONE[rights.state]}`} data-rights={rights.state}>
          {RIGHTS_WORDS[rights.state]}
        </span>
      )}
      {rights.held && (
        <span className="badge badge-warn" data-rights-held="">
          {HELD_WORDS}
        </span>
      )}
    </>
  );
}
