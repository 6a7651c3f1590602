// Which posts the queue lists: state, feed, network, media, rights and words (the
// words are asked for after a pause in typing).
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Feed, Post } from '../../api/client';
import type { ListState, PostFilters } from '../../api/queries/posts';
import { Options } from '../../ui/fields';
import { RIGHTS_FILTERS } from '../Rights/words';
import { STATE_NAMES } from './moderation';

/** the networks offered before any post of them is listed */
const KNOWN_NETWORKS = ['Mastodon', 'Bluesky', 'RSS', 'YouTube', 'Lemmy'];

function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  options: readonly (readonly [string | number, ReactNode])[];
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <Options of={options} />
      </select>
    </label>
  );
}

export function QueueFilters({
  filters,
  feeds,
  list,
  onFilter,
  onSearch,
}: {
  filters: PostFilters;
  feeds: Feed[];
  /** the posts listed, whose networks are offered too */
  list: Post[];
  /** a choice changed: the list starts again at its top, with nothing selected */
  onFilter(change: Partial<PostFilters>): void;
  /** the words to look for (trimmed) */
  onSearch(q: string): void;
}) {
  const [search, setSearch] = useState('');
  // the text search waits for a pause in typing
  useEffect(() => {
    const t = setTimeout(() => onSearch(search.trim()), 300);
    return () => clearTimeout(t);
  }, [search, onSearch]);
  const networks = useMemo(() => {
    const seen = new Set<string>(KNOWN_NETWORKS);
    for (const p of list) if (p.networkName) seen.add(p.networkName);
    return [...seen].sort();
  }, [list]);
  return (
    <form className="filters" role="search" aria-label="Filter posts" onSubmit={(e) => e.preventDefault()}>
      <FilterSelect
        label="State"
        value={filters.state}
        onChange={(state) => onFilter({ state: state as ListState })}
        options={Object.entries(STATE_NAMES)}
      />
      <FilterSelect
        label="Feed"
        value={filters.feedId}
        onChange={(feedId) => onFilter({ feedId })}
        options={[['', 'All feeds'], ...feeds.map((f) => [f.id, f.name] as const)]}
      />
      <FilterSelect
        label="Network"
        value={filters.network}
        onChange={(network) => onFilter({ network })}
        options={[['', 'All networks'], ...networks.map((n) => [n, n] as const)]}
      />
      <FilterSelect
        label="Media"
        value={filters.media}
        onChange={(media) => onFilter({ media: media as PostFilters['media'] })}
        options={[
          ['', 'Any'],
          ['image', 'Image'],
          ['video', 'Video'],
          ['text', 'Text only'],
        ]}
      />
      <FilterSelect
        label="Rights"
        value={filters.rights}
        onChange={(rights) => onFilter({ rights: rights as PostFilters['rights'] })}
        options={RIGHTS_FILTERS}
      />
      <label className="grow">
        Search text
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="words, author" />
      </label>
    </form>
  );
}
