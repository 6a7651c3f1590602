// Walls: the list with their counts (approved / pending / hidden), open a
// wall's page (ui/OpenWall.tsx), create (the slug suggested from the name),
// edit (name, slug, moderation mode, profanity filter, rights required and
// asked automatically, the look: WallLook.tsx; the
// submission page: WallSubmissions.tsx), delete and restore.
import { useState } from 'react';
import { type Wall, type WallPatch } from '../api/client';
import { useAccounts } from '../api/queries/accounts';
import { rowsOf } from '../api/queries/paging';
import { useDeleteWall, useRestoreWall, useSaveWall, useWalls } from '../api/queries/walls';
import { useMe } from '../auth';
import { href } from '../router';
import { byName, CheckboxField, FormActions, Options, SelectField, TextField } from '../ui/fields';
import { onSubmit, useForm } from '../ui/form';
import { OpenWall } from '../ui/OpenWall';
import { slugOf } from '../ui/slug';
import { brandingOut, lookOf, WallLook, type LookForm } from './WallLook';
import { WallSubmissions } from './WallSubmissions';
import { AUTO_CHOICES, REQUIRED_CHOICES } from './Rights/words';
import {
  Announce,
  Button,
  ConfirmDelete,
  DataTable,
  Dialog,
  ErrorNote,
  NoneYet,
  QueryRows,
  ScreenTitle,
  ShowMore,
} from '../ui/kit';

type Editing =
  | { mode: 'create' }
  | { mode: 'edit'; wall: Wall }
  | { mode: 'delete'; wall: Wall }
  | { mode: 'open'; wall: Wall }
  | null;

const TITLES = { create: 'New wall', edit: 'Edit wall', delete: 'Delete wall' } as const;

export function Walls() {
  const me = useMe();
  const walls = useWalls();
  const [editing, setEditing] = useState<Editing>(null);
  const [said, setSaid] = useState('');
  const restore = useRestoreWall({ onSuccess: (wall) => setSaid(`Wall “${wall.name}” restored.`) });
  const list = rowsOf(walls.data);
  const mayCreate = me.can('POST /walls');
  const howToAdd = mayCreate ? 'Make the first one with “New wall”.' : 'An editor or admin can make one.';
  const done = (msg?: string) => {
    setEditing(null);
    if (msg) setSaid(msg);
  };

  return (
    <section aria-labelledby="walls-title" className="screen">
      <div className="screen-head">
        <ScreenTitle>Walls</ScreenTitle>
        {mayCreate && (
          <Button variant="primary" onClick={() => setEditing({ mode: 'create' })}>
            New wall
          </Button>
        )}
      </div>
      <Announce message={said} />
      <ErrorNote error={restore.error} title="The wall was not restored" />
      <QueryRows query={walls} what="walls" rows={list} empty={<NoneYet howToAdd={howToAdd}>No walls yet.</NoneYet>}>
        <DataTable
          className="walls"
          caption="Walls with their posts by state"
          columns={['Wall', 'Moderation', 'Approved', 'Pending', 'Hidden', 'Actions']}
          numeric={['Approved', 'Pending', 'Hidden']}
        >
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
                    <Button onClick={() => setEditing({ mode: 'open', wall })}>
                      Open<span className="sr-only"> {wall.name}: its page, event screen, link and QR code</span>
                    </Button>
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
        </DataTable>
      </QueryRows>
      <ShowMore query={walls}>Show more walls</ShowMore>
      <Dialog
        title={editing?.mode === 'open' ? `Open “${editing.wall.name}”` : TITLES[editing?.mode ?? 'create']}
        open={editing !== null}
        onClose={() => setEditing(null)}
      >
        {editing?.mode === 'open' ? (
          <OpenWall wall={editing.wall} heading={false} />
        ) : editing?.mode === 'delete' ? (
          <DeleteWall wall={editing.wall} onDone={done} />
        ) : editing ? (
          <>
            <WallForm wall={editing.mode === 'edit' ? editing.wall : null} onDone={done} />
            {editing.mode === 'edit' && <WallSubmissions wallId={editing.wall.id} />}
          </>
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
  const accounts = useAccounts();
  const save = useSaveWall(wall, {
    onSuccess: (saved) => onDone(wall ? `Wall “${saved.name}” saved.` : `Wall “${saved.name}” created.`),
  });
  const { form, field, check, set } = useForm(
    {
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
      mediaWait: wall?.mediaWait ?? false,
      rightsRequired: wall?.rightsRequired ?? 'none',
      rightsAuto: wall?.rightsAuto ?? 'off',
    },
    save.error,
  );
  const fields = (): WallPatch => ({
    name: form.name,
    url: form.url,
    moderation: form.moderation,
    profanity: form.profanity,
    layout: form.layout === '' ? null : (form.layout as NonNullable<Wall['layout']>),
    theme: form.theme === '' ? null : (form.theme as NonNullable<Wall['theme']>),
    columns: columnsOut(form.columns),
    allowFraming: form.allowFraming,
    mediaWait: form.mediaWait,
    rightsRequired: form.rightsRequired,
    rightsAuto: form.rightsAuto,
  });
  const [look, setLook] = useState<LookForm>(() => lookOf(wall));
  // a new wall's slug follows its name until the operator types one (an emptied slug follows again)
  const [slugTyped, setSlugTyped] = useState(wall !== null);
  const accountList = accounts.data?.data ?? [];
  const submit = onSubmit(() =>
    save.mutate({
      fields: { ...fields(), branding: brandingOut(look) },
      accountId: Number(form.accountId || accounts.data?.data[0]?.id),
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <ErrorNote error={save.error} title={wall ? 'The wall was not saved' : 'The wall was not created'} />
      {wall === null && (
        <SelectField label="Account" {...field('accountId')} value={form.accountId || String(accountList[0]?.id ?? '')}>
          {accounts.isPending && <option value="">Loading accounts…</option>}
          <Options of={byName(accountList)} />
        </SelectField>
      )}
      <TextField
        label="Name"
        {...field('name')}
        onChange={(e) =>
          set(slugTyped ? { name: e.target.value } : { name: e.target.value, url: slugOf(e.target.value) })
        }
        required
      />
      <TextField
        label="URL slug"
        {...field('url')}
        onChange={(e) => {
          setSlugTyped(e.target.value !== '');
          set({ url: e.target.value });
        }}
        hint={
          slugTyped
            ? 'Lowercase letters, digits, - and _; unique within the account.'
            : 'Made from the name as you type; change it if you like. Lowercase letters, digits, - and _; unique within the account.'
        }
        required
      />
      <SelectField label="Moderation" {...field('moderation')}>
        <option value="manual">Manual: new posts wait for approval</option>
        <option value="auto">Auto: new posts appear at once</option>
      </SelectField>
      <CheckboxField label="Profanity filter" {...check('profanity')} />
      <fieldset className="display-defaults">
        <legend>How the wall shows on pages that do not choose</legend>
        <SelectField label="Layout" {...field('layout')}>
          <option value="">The embed’s own (masonry; the hosted page: event)</option>
          <option value="masonry">Masonry</option>
          <option value="grid">Grid</option>
          <option value="carousel">Carousel</option>
          <option value="event">Event screen</option>
        </SelectField>
        <SelectField label="Theme" {...field('theme')}>
          <option value="">The embed’s own (the reader’s system setting)</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
          <option value="auto">Auto (the reader’s system setting)</option>
        </SelectField>
        <TextField
          label="Columns at most"
          inputMode="numeric"
          {...field('columns')}
          hint="1–8; empty: as many as fit."
        />
        <CheckboxField
          label="Any site may frame the hosted page (keys bound to sites: those sites only)"
          {...check('allowFraming')}
        />
        <CheckboxField
          label="Show a new post only once Wallery has its pictures (otherwise at once, pictures following)"
          {...check('mediaWait')}
        />
      </fieldset>
      <fieldset className="display-defaults">
        <legend>Rights</legend>
        <SelectField
          label="Rights required"
          {...field('rightsRequired')}
          hint="A post waiting for rights is kept off every public view (embed, hosted page, API) until its author grants them."
        >
          <Options of={REQUIRED_CHOICES} />
        </SelectField>
        <SelectField
          label="Ask automatically"
          {...field('rightsAuto')}
          hint="Within the account’s limits and opt-out list; only on networks Wallery can reply on (see Rights)."
        >
          <Options of={AUTO_CHOICES} />
        </SelectField>
      </fieldset>
      <WallLook
        look={look}
        theme={form.theme}
        set={(change) => setLook((now) => ({ ...now, ...change }))}
        error={save.error}
      />
      <FormActions submit={wall ? 'Save wall' : 'Create wall'} pending={save.isPending} onCancel={() => onDone()} />
    </form>
  );
}

function DeleteWall({ wall, onDone }: { wall: Wall; onDone(message?: string): void }) {
  const remove = useDeleteWall(wall, { onSuccess: () => onDone(`Wall “${wall.name}” deleted. It can be restored.`) });
  return (
    <ConfirmDelete thing="wall" mutation={remove} onCancel={() => onDone()}>
      Delete “{wall.name}”? It disappears from the public API at once; its feeds and posts are kept, and “Restore”
      brings it back.
    </ConfirmDelete>
  );
}
