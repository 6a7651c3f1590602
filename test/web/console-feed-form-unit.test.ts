// The feed form's connector catalogue and settings, in Node: the generated
// catalogue names every connector kind with its network, docs page and
// labelled fields; what the form sends for each kind, filled as an operator
// fills it, is a setting the API takes (connectorProblem: the same check as
// the management API), including each one-of rule the schema declares
// (`x-one-of`); a saved setting fills the form back exactly; # and @ typed
// before a hashtag or an account are left out.
import { describe, expect, it } from 'vitest';
import { CONNECTOR_KINDS } from '../../src/domain/lists.js';
import { connectorProblem } from '../../src/schemas/connectors.js';
import { CONNECTOR_CATALOGUE } from '../../web/console/src/api/connectors.gen.js';
import { FIELD_LABELS, fieldLabel, hasLabel } from '../../web/console/src/api/messages.js';
import {
  aboutText,
  connectorOf,
  describeSettings,
  formOf,
  shownFields,
  sourceOf,
  switchKind,
  type ConnectorForm,
} from '../../web/console/src/screens/feeds/settings.js';
import { fieldsToFill, sampleOf } from './feed-samples.js';

/** The form of a kind filled as an operator fills it for a valid setting. */
function filled(kind: (typeof CONNECTOR_CATALOGUE)[number]): ConnectorForm {
  const form = formOf(kind.kind);
  for (const f of fieldsToFill(kind)) form.values[f.name] = sampleOf(f, 7);
  return form;
}

describe('the feed form’s connector catalogue', () => {
  it('has every connector kind, each with its title, description, network and docs page', () => {
    expect(CONNECTOR_CATALOGUE.map((k) => k.kind).sort()).toEqual([...CONNECTOR_KINDS].sort());
    for (const k of CONNECTOR_CATALOGUE) {
      expect(k.title, k.kind).not.toBe(k.kind);
      expect(k.description, k.kind).not.toBe('');
      expect(k.source, k.kind).toMatch(/^\S/);
      expect(k.docs, `${k.kind}: 'x-docs'`).toMatch(/^\/[a-z0-9/-]+(#[a-z0-9-]+)?$/);
      // a kind that reads with a connection has the field to name it
      if (k.network) expect(k.fields.find((f) => f.name === 'connectionId')?.input, k.kind).toBe('connection');
      for (const group of k.oneOf) for (const name of group) expect(k.fields.map((f) => f.name)).toContain(name);
    }
    expect(CONNECTOR_CATALOGUE.find((k) => k.kind === 'rss')).toMatchObject({
      title: 'RSS or Atom feed',
      source: 'RSS',
      network: null,
      fields: [
        { name: 'url', title: 'Feed URL', required: true, input: 'url', placeholder: 'https://example.com/feed.xml' },
        { name: 'channelImage', required: false, input: 'checkbox' },
      ],
    });
    expect(CONNECTOR_CATALOGUE.find((k) => k.kind === 'mastodon')?.oneOf).toEqual([['hashtag', 'account']]);
    const bluesky = CONNECTOR_CATALOGUE.find((k) => k.kind === 'bluesky')!;
    expect(bluesky.fields.find((f) => f.name === 'reposts')).toMatchObject({
      input: 'select',
      options: [
        { value: 'skip', label: 'Leave them out' },
        { value: 'unwrap', label: 'Show the post reposted' },
      ],
    });
    expect(bluesky.fields.filter((f) => f.advanced).map((f) => f.name)).toEqual(['appViewUrl', 'serviceUrl']);
  });

  it('labels every field and says what it takes (title and description in the schema)', () => {
    const unlabelled = CONNECTOR_CATALOGUE.flatMap((k) =>
      k.fields.filter((f) => f.title === f.name || f.description === '').map((f) => `${k.kind}.${f.name}`),
    );
    expect(unlabelled, 'give these fields a title and a description').toEqual([]);
  });

  it('names every connector setting in a refusal by a label of the form (the table’s, else the schema’s title)', () => {
    for (const k of CONNECTOR_CATALOGUE)
      for (const f of k.fields) {
        const path = `connector.${f.name}`;
        expect(hasLabel(path), path).toBe(true);
        const titles = CONNECTOR_CATALOGUE.flatMap((o) =>
          o.fields.filter((g) => g.name === f.name).map((g) => g.title),
        );
        expect([FIELD_LABELS[path], ...titles], path).toContain(fieldLabel(path));
      }
  });

  it.each(CONNECTOR_CATALOGUE.map((k) => [k.kind, k] as const))(
    '%s: the form filled as an operator fills it sends a setting the API takes',
    (_, kind) => {
      const connector = connectorOf(filled(kind));
      expect(connector).toMatchObject({ kind: kind.kind });
      expect(connectorProblem(connector), JSON.stringify(connector)).toBeNull();
      expect(sourceOf(filled(kind)).source).toBe(kind.source);
      // and it fills the form back exactly (editing a feed)
      expect(connectorOf(formOf(kind.kind, connector))).toEqual(connector);
      expect(describeSettings(connector!)).toMatch(new RegExp(`^${kind.title.replace(/[()]/g, '\\$&')}`));
    },
  );

  it.each(CONNECTOR_CATALOGUE.filter((k) => k.oneOf.length > 0).map((k) => [k.kind, k] as const))(
    '%s: each one-of group is a rule of the API (none or two refused) and the form sends the field chosen',
    (_, kind) => {
      const valid = connectorOf(filled(kind))!;
      kind.oneOf.forEach((group, i) => {
        const [first, second] = group as [string, string];
        const other = kind.fields.find((f) => f.name === second)!;
        const both = { ...valid, [second]: sampleOf(other, 7) };
        expect(connectorProblem(both), `${first} and ${second}`).toMatch(/exactly one of|must/);
        const none = { ...valid };
        delete none[first];
        expect(connectorProblem(none), `neither ${first} nor ${second}`).not.toBeNull();
        // the other field chosen: only it is sent, and the form shows only it of the two
        const form = filled(kind);
        form.chosen[i] = second;
        form.values[second] = sampleOf(other, 7);
        const sent = connectorOf(form)!;
        expect(sent).not.toHaveProperty(first);
        expect(sent[second]).toBeDefined();
        expect(connectorProblem(sent)).toBeNull();
        expect(shownFields(form).map((f) => f.name)).not.toContain(first);
        expect(formOf(kind.kind, sent).chosen[i]).toBe(second);
      });
    },
  );

  it('leaves out the # of a hashtag and the @ of an account, and empty optional settings', () => {
    const form = formOf('mastodon');
    form.values.instance = ' https://mastodon.social ';
    form.values.hashtag = '#harbourfest';
    expect(connectorOf(form)).toEqual({
      kind: 'mastodon',
      instance: 'https://mastodon.social',
      hashtag: 'harbourfest',
    });
    form.chosen[0] = 'account';
    form.values.account = '@ana@mastodon.social';
    form.values.reposts = 'unwrap';
    expect(connectorOf(form)).toEqual({
      kind: 'mastodon',
      instance: 'https://mastodon.social',
      account: 'ana@mastodon.social',
      reposts: 'unwrap',
    });
    expect(sourceOf(form)).toEqual({ source: 'Mastodon', sourceType: 'account' });
    // the field asked for goes even empty: the API then says under it what it must be
    form.values.account = '';
    expect(connectorOf(form)).toEqual({
      kind: 'mastodon',
      instance: 'https://mastodon.social',
      account: '',
      reposts: 'unwrap',
    });
    // another kind keeps what the two share
    const lemmy = switchKind(form, 'lemmy');
    expect(lemmy.values.instance).toBe(' https://mastodon.social ');
    expect(connectorOf(formOf('none'))).toBeNull();
    expect(sourceOf(formOf('none'))).toEqual({ source: 'Manual', sourceType: 'posts' });
    // a kind's description as a sentence, without the one-of note the radio buttons say
    expect(
      aboutText('a hashtag timeline or an account’s statuses on one instance (exactly one of hashtag, account)'),
    ).toBe('A hashtag timeline or an account’s statuses on one instance.');
    expect(aboutText('an author feed; exactly one of actor, hashtag')).toBe('An author feed.');
    expect(aboutText('a community on a Lemmy instance')).toBe('A community on a Lemmy instance.');
  });
});
