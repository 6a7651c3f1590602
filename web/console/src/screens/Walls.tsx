// Walls: the list with their counts (approved / pending / hidden), create,
// edit (name, slug, moderation mode, profanity filter), delete and restore.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, unwrap, type Wall, type WallCreate } from '../api/client';
import { useMe } from '../auth';
import { href } from '../router';
import { useAccounts } from '../ui/AccountPicker';
import {
  Announce,
  Button,
  CheckboxField,
  ConfirmDanger,
  Dialog,
  Empty,
  ErrorNote,
  Loading,
  ScreenTitle,
  SelectField,
  TextField,
} from '../ui/kit';

export const wallsKey = ['walls'] as const;

export function useWalls() {
  return useInfiniteQuery({
    queryKey: wallsKey,
    queryFn: ({ pageParam }) =>
      unwrap(api.GET('/walls', { params: { query: { limit: '200', ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    // a screen opened on a wall made a moment ago (another operator, the CLI) must find it
    refetchOnMount: 'always',
  });
}

export function useWall(wallId: number) {
  return useQuery({
    queryKey: ['wall', wallId],
    queryFn: () => unwrap(api.GET('/walls/{wallId}', { params: { path: { wallId: String(wallId) } } })),
  });
}

type Editing = { mode: 'create' } | { mode: 'edit'; wall: Wall } | { mode: 'delete'; wall: Wall } | null;

export function Walls() {
  const me = useMe();
  const walls = useWalls();
  const [editing, setEditing] = useState<Editing>(null);
  const [said, setSaid] = useState('');
  const queryClient = useQueryClient();
  const restore = useMutation({
    mutationFn: (wall: Wall) =>
      unwrap(api.POST('/walls/{wallId}/restore', { params: { path: { wallId: String(wall.id) } } })),
    onSuccess: (wall) => {
      setSaid(`Wall “${wall.name}” restored.`);
      return queryClient.invalidateQueries({ queryKey: wallsKey });
    },
  });
  const list = walls.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <section aria-labelledby="walls-title" className="screen">
      <div className="screen-head">
        <ScreenTitle>Walls</ScreenTitle>
        {me.can('POST /walls') && (
          <Button variant="primary" onClick={() => setEditing({ mode: 'create' })}>
            New wall
          </Button>
        )}
      </div>
      <Announce message={said} />
      <ErrorNote error={restore.error} title="The wall was not restored" />
      {walls.isPending && <Loading what="walls" />}
      <ErrorNote error={walls.error} title="The walls could not be loaded" />
      {walls.isSuccess && list.length === 0 && (
        <Empty>
          <p>No walls yet.</p>
          {me.can('POST /walls') ? <p>Make the first one with “New wall”.</p> : <p>An editor or admin can make one.</p>}
        </Empty>
      )}
      {list.length > 0 && (
        <table className="walls">
          <caption className="sr-only">Walls with their posts by state</caption>
          <thead>
            <tr>
              <th scope="col">Wall</th>
              <th scope="col">Moderation</th>
              <th scope="col" className="num">
                Approved
              </th>
              <th scope="col" className="num">
                Pending
              </th>
              <th scope="col" className="num">
                Hidden
              </th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((wall) => (
              <tr key={wall.id} data-wall-id={wall.id} className={wall.deleted ? 'deleted' : undefined}>
                <th scope="row">
                  <span className="wall-name">{wall.name}</span>
                  <span className="sub">
                    /{wall.url} · #{wall.id} · account {wall.accountId}
                    {wall.deleted && <strong className="badge badge-warn"> deleted</strong>}
                  </span>
                </th>
                <td data-label="Moderation">{wall.moderation === 'manual' ? 'Manual (approve first)' : 'Auto'}</td>
                <td data-label="Approved" className="num">
                  {wall.approvedCount}
                </td>
                <td data-label="Pending" className="num">
                  {wall.pendingCount}
                </td>
                <td data-label="Hidden" className="num">
                  {wall.hiddenCount}
                </td>
                <td className="actions">
                  {!wall.deleted && (
                    <>
                      <a className="btn btn-primary" href={href.queue(wall.id)}>
                        Moderate<span className="sr-only"> {wall.name}</span>
                      </a>
                      <a className="btn btn-secondary" href={href.feeds(wall.id)}>
                        Feeds<span className="sr-only"> of {wall.name}</span>
                      </a>
                      <a className="btn btn-secondary" href={href.rules(wall.id)}>
                        Rules<span className="sr-only"> of {wall.name}</span>
                      </a>
                    </>
                  )}
                  {!wall.deleted && me.can('PATCH /walls/{wallId}') && (
                    <Button onClick={() => setEditing({ mode: 'edit', wall })}>
                      Edit<span className="sr-only"> {wall.name}</span>
                    </Button>
                  )}
                  {!wall.deleted && me.can('DELETE /walls/{wallId}') && (
                    <Button variant="danger" onClick={() => setEditing({ mode: 'delete', wall })}>
                      Delete<span className="sr-only"> {wall.name}</span>
                    </Button>
                  )}
                  {wall.deleted && me.can('POST /walls/{wallId}/restore') && (
                    <Button onClick={() => restore.mutate(wall)} disabled={restore.isPending}>
                      Restore<span className="sr-only"> {wall.name}</span>
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {walls.hasNextPage && (
        <Button onClick={() => void walls.fetchNextPage()} disabled={walls.isFetchingNextPage}>
          Show more walls
        </Button>
      )}
      <Dialog
        title={editing?.mode === 'create' ? 'New wall' : editing?.mode === 'edit' ? 'Edit wall' : 'Delete wall'}
        open={editing !== null}
        onClose={() => setEditing(null)}
      >
        {editing?.mode === 'delete' ? (
          <DeleteWall
            wall={editing.wall}
            onDone={(msg) => {
              setEditing(null);
              if (msg) setSaid(msg);
            }}
          />
        ) : editing ? (
          <WallForm
            wall={editing.mode === 'edit' ? editing.wall : null}
            onDone={(msg) => {
              setEditing(null);
              if (msg) setSaid(msg);
            }}
          />
        ) : null}
      </Dialog>
    </section>
  );
}

/** Columns as typed: empty is null, a whole number is a number, anything else goes as typed for the API to name. */
function columnsOut(typed: string): number | null {
  const t = typed.trim();
  if (t === '') return null;
  return /^-?\d{1,6}$/.test(t) ? Number(t) : (t as unknown as number);
}

function WallForm({ wall, onDone }: { wall: Wall | null; onDone(message?: string): void }) {
  const queryClient = useQueryClient();
  const accounts = useAccounts();
  const [form, setForm] = useState({
    accountId: '',
    name: wall?.name ?? '',
    url: wall?.url ?? '',
    moderation: wall?.moderation ?? 'manual',
    profanity: wall?.profanity ?? false,
    // the embed's defaults for this wall ('' = the embed's own)
    layout: wall?.layout ?? '',
    theme: wall?.theme ?? '',
    columns: wall?.columns == null ? '' : String(wall.columns),
    allowFraming: wall?.allowFraming ?? false,
  });
  const save = useMutation({
    mutationFn: async () => {
      const fields = {
        name: form.name,
        url: form.url,
        moderation: form.moderation,
        profanity: form.profanity,
        layout: form.layout === '' ? null : (form.layout as NonNullable<Wall['layout']>),
        theme: form.theme === '' ? null : (form.theme as NonNullable<Wall['theme']>),
        columns: columnsOut(form.columns),
        allowFraming: form.allowFraming,
      };
      if (wall)
        return unwrap(api.PATCH('/walls/{wallId}', { params: { path: { wallId: String(wall.id) } }, body: fields }));
      const accountId = Number(form.accountId || accounts.data?.data[0]?.id);
      return unwrap(api.POST('/walls', { body: { ...fields, accountId } as WallCreate }));
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: wallsKey });
      queryClient.setQueryData(['wall', saved.id], saved);
      onDone(wall ? `Wall “${saved.name}” saved.` : `Wall “${saved.name}” created.`);
    },
  });
  const err = save.error instanceof ApiError ? save.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const accountList = accounts.data?.data ?? [];
  return (
    <form onSubmit={submit} noValidate>
      <ErrorNote error={save.error} title={wall ? 'The wall was not saved' : 'The wall was not created'} />
      {wall === null && (
        <SelectField
          label="Account"
          value={form.accountId || String(accountList[0]?.id ?? '')}
          onChange={(e) => setForm({ ...form, accountId: e.target.value })}
          error={err?.forField('accountId')}
        >
          {accounts.isPending && <option value="">Loading accounts…</option>}
          {accountList.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} (#{a.id})
            </option>
          ))}
        </SelectField>
      )}
      <TextField
        label="Name"
        value={form.name}
        onChange={(e) => setForm({ ...form, name: e.target.value })}
        error={err?.forField('name')}
        required
      />
      <TextField
        label="URL slug"
        value={form.url}
        onChange={(e) => setForm({ ...form, url: e.target.value })}
        error={err?.forField('url')}
        hint="Lowercase letters, digits, - and _; unique within the account."
        required
      />
      <SelectField
        label="Moderation"
        value={form.moderation}
        onChange={(e) => setForm({ ...form, moderation: e.target.value as 'auto' | 'manual' })}
        error={err?.forField('moderation')}
      >
        <option value="manual">Manual: new posts wait for approval</option>
        <option value="auto">Auto: new posts appear at once</option>
      </SelectField>
      <CheckboxField
        label="Profanity filter"
        checked={form.profanity}
        onChange={(e) => setForm({ ...form, profanity: e.target.checked })}
      />
      <fieldset className="display-defaults">
        <legend>How the wall shows on pages that do not choose</legend>
        <SelectField
          label="Layout"
          value={form.layout}
          onChange={(e) => setForm({ ...form, layout: e.target.value })}
          error={err?.forField('layout')}
        >
          <option value="">The embed’s own (masonry; the hosted page: event)</option>
          <option value="masonry">Masonry</option>
          <option value="grid">Grid</option>
          <option value="carousel">Carousel</option>
          <option value="event">Event screen</option>
        </SelectField>
        <SelectField
          label="Theme"
          value={form.theme}
          onChange={(e) => setForm({ ...form, theme: e.target.value })}
          error={err?.forField('theme')}
        >
          <option value="">The embed’s own (the reader’s system setting)</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
          <option value="auto">Auto (the reader’s system setting)</option>
        </SelectField>
        <TextField
          label="Columns at most"
          inputMode="numeric"
          value={form.columns}
          onChange={(e) => setForm({ ...form, columns: e.target.value })}
          error={err?.forField('columns')}
          hint="1–8; empty: as many as fit."
        />
        <CheckboxField
          label="Any site may frame the hosted page (keys bound to sites: those sites only)"
          checked={form.allowFraming}
          onChange={(e) => setForm({ ...form, allowFraming: e.target.checked })}
        />
      </fieldset>
      <div className="form-actions">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {wall ? 'Save wall' : 'Create wall'}
        </Button>
        <Button onClick={() => onDone()}>Cancel</Button>
      </div>
    </form>
  );
}

function DeleteWall({ wall, onDone }: { wall: Wall; onDone(message?: string): void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/walls/{wallId}', { params: { path: { wallId: String(wall.id) } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: wallsKey });
      onDone(`Wall “${wall.name}” deleted. It can be restored.`);
    },
  });
  return (
    <ConfirmDanger
      error={remove.error}
      errorTitle="The wall was not deleted"
      action="Delete wall"
      pending={remove.isPending}
      onConfirm={() => remove.mutate()}
      onCancel={() => onDone()}
    >
      Delete “{wall.name}”? It disappears from the public API at once; its feeds and posts are kept, and “Restore”
      brings it back.
    </ConfirmDanger>
  );
}
