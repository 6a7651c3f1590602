// The people (and one shop, one festival, one club) who post on the demo
// walls: names, handles, the network they post from, and their avatars —
// crops of the demo's animal and flower photographs, or initials drawn by
// scripts/demo-photos.ts in their own colours (demo/media/avatar-*.{jpg,svg}).

export interface DemoAuthor {
  key: string;
  name: string;
  username: string;
  /** the network's name as W2 gives it */
  network: 'Instagram' | 'Mastodon' | 'Bluesky' | 'YouTube' | 'RSS' | 'Lemmy' | 'Facebook';
  /** the file in demo/media */
  avatar: string;
  /** an initials avatar's gradient */
  colors: readonly [string, string];
}

const a = (
  key: string,
  name: string,
  username: string,
  network: DemoAuthor['network'],
  avatar: string | null,
  colors: readonly [string, string] = ['#546e7a', '#263238'],
): DemoAuthor => ({ key, name, username, network, avatar: avatar ?? `avatar-${key}.svg`, colors });

export const DEMO_AUTHORS: DemoAuthor[] = [
  // the brand's own accounts and its customers
  a('tonewood', 'Tonewood Music Co.', 'tonewoodmusic', 'Instagram', null, ['#b5651d', '#6d3b12']),
  a('tonewood-yt', 'Tonewood Sessions', 'TonewoodSessions', 'YouTube', null, ['#c62828', '#7f1d1d']),
  a('lena', 'Lena Hartmann', 'lena.plays.bass', 'Instagram', null, ['#7e57c2', '#4527a0']),
  a('marco', 'Marco Bellini', 'marcobellini', 'Instagram', null, ['#00897b', '#004d40']),
  a('aiko', 'Aiko Tanaka', 'aiko@mastodon.art', 'Mastodon', null, ['#ec407a', '#ad1457']),
  a('sam', 'Sam Okoye', 'samokoye.bsky.social', 'Bluesky', 'avatar-espresso.jpg'),
  // the festival's own accounts and its visitors
  a('starlight', 'Starlight Lake Festival', 'starlightlake.bsky.social', 'Bluesky', null, ['#283593', '#0d1442']),
  a('noor', 'Noor Haddad', 'noorhaddad', 'Instagram', null, ['#f9a825', '#e65100']),
  a('jonas', 'Jonas Lindqvist', 'jonas@astrodon.social', 'Mastodon', null, ['#1e88e5', '#0d47a1']),
  a('priya', 'Priya Raman', 'priyaraman.bsky.social', 'Bluesky', null, ['#43a047', '#1b5e20']),
  a('tomas', 'Tomás Ferreira', 'tomas.ferreira.77', 'Facebook', null, ['#6d4c41', '#3e2723']),
  a('skynotes', 'Sky Notes (blog)', 'skynotes', 'RSS', null, ['#37474f', '#102027']),
  // the community
  a('opentrails', 'Open Trails Collective', 'opentrails@lemmy.world', 'Lemmy', null, ['#2e7d32', '#1b5e20']),
  a('mira', 'Mira Kowalski', 'mira.k', 'Instagram', 'avatar-chelsea.jpg'),
  a('eitan', 'Eitan Cohen', 'eitan@mastodon.social', 'Mastodon', 'avatar-nuthatch.jpg'),
  a('ines', 'Inés Navarro', 'inesnavarro.bsky.social', 'Bluesky', 'avatar-ladybird.jpg'),
  a('kofi', 'Kofi Mensah', 'kofi.walks', 'Instagram', 'avatar-dogs.jpg'),
  a('hanna', 'Hanna Virtanen', 'hanna@pixelfed.social', 'Mastodon', 'avatar-marigold.jpg'),
  a('greenbelt', 'Greenbelt Notes', 'greenbeltnotes', 'RSS', null, ['#558b2f', '#33691e']),
  a('trailtv', 'Trail TV', 'TrailTV', 'YouTube', null, ['#ef6c00', '#bf360c']),
];

export const author = (key: string): DemoAuthor => {
  const found = DEMO_AUTHORS.find((x) => x.key === key);
  if (!found) throw new Error(`no demo author ${key}`);
  return found;
};
