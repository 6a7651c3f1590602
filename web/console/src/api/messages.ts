// The management API's refusals in words a marketer understands. The API
// names fields by their paths (`connector.url`, `branding.accent`,
// `rules[2].words`) and says what they must be in a developer's terms
// ("must be an absolute http or https URL"); the console shows the same
// refusal naming the field by its label in the form ("Feed URL") and in
// plain words ("must be a web address starting with http:// or https://").
// Every screen gets this through the kit: a field's error under it
// (ui/fields.tsx) and a failed call's note (ErrorNote in ui/kit.tsx). A
// failing feed's last error is explained here too (cause and fix).
// Types only from client.ts: this module runs in plain Node tests too.
import type { FieldError } from './client';
import { CONNECTOR_CATALOGUE } from './connectors.gen';

/**
 * The console's names of the API's fields: the labels of the forms that set
 * them. Array items by `[]` (`rules[].words`); ITEMS names the item itself.
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  // walls
  name: 'Name',
  url: 'URL',
  accountId: 'Account',
  moderation: 'Moderation',
  profanity: 'Profanity filter',
  layout: 'Layout',
  theme: 'Theme',
  columns: 'Columns at most',
  allowFraming: 'Any site may frame the hosted page',
  mediaWait: 'Show a new post only once Wallery has its pictures',
  rightsRequired: 'Rights required',
  rightsAuto: 'Ask automatically',
  // rights settings, requests, answers, opt-outs (the Rights screen)
  rights: 'Rights',
  template: 'Request text',
  grantHashtag: 'Grant hashtag',
  declineWords: 'Decline words',
  'declineWords[]': 'Decline word',
  brand: 'Brand',
  termsUrl: 'Terms link',
  mastodonVisibility: 'Mastodon: who sees a request',
  perAuthorPerDay: 'Requests to one author a day',
  perDay: 'Requests a day',
  expireDays: 'Unanswered requests expire after (days)',
  connections: 'Who asks on each network',
  'connections.mastodon': 'Mastodon connection',
  'connections.bluesky': 'Bluesky connection',
  'connections.pixelfed': 'Pixelfed connection',
  'connections.x': 'X connection',
  'connections.threads': 'Threads connection',
  'connections.youtube': 'YouTube connection',
  'connections.reddit': 'Reddit connection',
  method: 'How to ask',
  note: 'Note',
  username: 'Author’s handle',
  wallId: 'Wall',
  branding: 'Look',
  'branding.accent': 'Accent colour',
  'branding.background': 'Background colour',
  'branding.cardBackground': 'Card colour',
  'branding.text': 'Text colour',
  'branding.font': 'Font',
  'branding.radius': 'Corner radius',
  'branding.cardStyle': 'Cards',
  'branding.logoUrl': 'Logo URL',
  'branding.callToPost': 'Call to post',
  'branding.infoUrl': 'Info URL',
  'branding.vars': 'Custom variables',
  // feeds
  connector: 'What to collect',
  'connector.kind': 'Network',
  'connector.url': 'Feed URL',
  'connector.channelImage': 'Use the feed’s artwork',
  'connector.instance': 'Instance URL',
  'connector.hashtag': 'Hashtag',
  'connector.account': 'Account',
  'connector.actor': 'Handle or DID',
  'connector.reposts': 'Reposts',
  'connector.channelId': 'Channel id',
  'connector.playlistId': 'Playlist id',
  'connector.community': 'Community',
  'connector.baseUrl': 'Instance URL',
  'connector.appViewUrl': 'App view URL',
  'connector.serviceUrl': 'Service URL',
  source: 'Network',
  sourceType: 'Kind of feed',
  enabled: 'Enabled',
  // posts
  state: 'State',
  status: 'Status',
  reason: 'Reason',
  content: 'Text',
  highlighted: 'Highlighted',
  pinned: 'Pinned',
  hidden: 'Hidden',
  cta: 'Call to action',
  'cta.text': 'Button text',
  'cta.url': 'Button link',
  'cta.color': 'Button text colour',
  'cta.background': 'Button colour',
  'cta.status': 'Button shown',
  action: 'Action',
  postIds: 'Selected posts',
  feedId: 'Feed',
  postId: 'Post',
  network: 'Network',
  media: 'Media',
  q: 'Search',
  // products and tags
  sku: 'SKU',
  price: 'Price',
  currency: 'Currency code',
  currencySymbol: 'Currency symbol',
  discount: 'Discount',
  discountCurrency: 'Discount currency',
  discountCurrencySymbol: 'Discount currency symbol',
  image: 'Picture URL',
  storeProductId: 'Store product id',
  storeProductType: 'Store product type',
  storeShopName: 'Store shop name',
  productId: 'Product',
  position: 'Position',
  left: 'Left (%)',
  top: 'Top (%)',
  tags: 'Products on the post',
  'tags[].productId': 'Product',
  'tags[].left': 'Left (%)',
  'tags[].top': 'Top (%)',
  // rules
  rules: 'Rules',
  'rules[].id': 'Rule id',
  'rules[].kind': 'Kind',
  'rules[].action': 'Action',
  'rules[].words': 'Words or phrases',
  'rules[].match': 'Match',
  'rules[].usernames': 'Usernames',
  'rules[].languages': 'Languages',
  'rules[].network': 'Network',
  'rules[].require': 'Required media',
  'rules[].min': 'Shortest text (characters)',
  // text signals: the language and sentiment rules
  'rules[].mode': 'Languages listed are',
  'rules[].unknown': 'Language unknown',
  'rules[].below': 'Sentiment below',
  // picture rules
  'rules[].classes': 'Picture classes',
  'rules[].threshold': 'Score threshold (0–1)',
  'rules[].distance': 'Distance (bits)',
  'rules[].withinHours': 'Window (hours)',
  // the rights rule: the label of its checkbox group in the rule editor
  'rules[].states': 'Posts whose rights are',
  queued: 'Posts queued for the image check',
  // spam rules
  'rules[].within': 'Within (minutes)',
  'rules[].by': 'Count by',
  'rules[].count': 'Posts',
  'rules[].minutes': 'Minutes',
  'rules[].bot': 'Bot accounts',
  'rules[].minAgeDays': 'Youngest account (days)',
  // the provider rule
  'rules[].provider': 'Moderation provider',
  'rules[].labels': 'Labels that count',
  // the submission page (attendee uploads)
  title: 'Title',
  terms: 'Terms',
  consentText: 'Consent text',
  language: 'Language',
  maxBytes: 'Largest photo (bytes)',
  perIpPerHour: 'Uploads per address an hour',
  perWallPerMinute: 'Uploads to the wall a minute',
  // the event screen's live control
  paused: 'Paused',
  spotlight: 'Spotlight',
  'spotlight.postId': 'Post in the spotlight',
  'spotlight.seconds': 'Spotlight (seconds)',
  showSlide: 'Show a slide',
  'showSlide.slideId': 'Slide',
  'showSlide.seconds': 'Slide shown (seconds)',
  hide: 'Hide from the screen',
  unhide: 'Show on the screen again',
  qr: 'QR code',
  schedule: 'Schedule',
  'schedule[].action': 'Action',
  'schedule[].at': 'Time',
  'schedule[].message': 'Message',
  text: 'Text',
  imageUrl: 'Picture URL',
  sponsor: 'Sponsor',
  everyPosts: 'Every N posts',
  startsAt: 'Shown from',
  endsAt: 'Shown until',
  // accounts, keys, tokens, webhooks
  plan: 'Plan',
  dailyCallLimit: 'Daily call limit',
  origins: 'Allowed origins',
  role: 'Role',
  accounts: 'Limit to accounts',
  events: 'Events',
  expireOldNow: 'Stop signing with the old secret now',
  // connections (an account's tokens and API keys for networks; `network` is above)
  instance: 'Server',
  authKind: 'How it signs in',
  accessToken: 'Access token',
  refreshToken: 'Refresh token',
  apiKey: 'API key',
  apiSecret: 'API secret',
  externalAccountId: 'Network account id',
  externalAccountName: 'Network account name',
  scopes: 'Permissions',
  expiresAt: 'Expires',
  connectionId: 'Connection',
  // lists, analytics, audit
  limit: 'Per page',
  cursor: 'Page',
  from: 'From',
  to: 'To',
  since: 'Since',
  targetType: 'Target type',
  targetId: 'Target id',
  tokenName: 'Actor (token name)',
  dryRun: 'Preview only',
  includeApproved: 'Approved posts too',
  body: 'The form',
};

/** The noun of an array's item, for "Rule 3: …". */
const ITEMS: Readonly<Record<string, string>> = {
  rules: 'Rule',
  tags: 'Product tag',
  postIds: 'Selected post',
  origins: 'Allowed origin',
  accounts: 'Account',
  events: 'Event',
  hide: 'Post',
  unhide: 'Post',
  schedule: 'Scheduled change',
  scopes: 'Permission',
  declineWords: 'Decline word',
};

/** A field path as the API writes it: `name`, `connector.url`, `rules[2].words`, `branding.vars.--wallery-gap`. */
const PATH = /[A-Za-z][\w-]*(?:\[\d+\])?(?:\.[\w-]+(?:\[\d+\])?)*/;
const LEADING = new RegExp(`^(${PATH.source})(:\\s+|\\s+)([\\s\\S]*)$`);
/** a path inside a message: dotted or indexed (a plain word is not taken for one) */
const INNER = /(?<![\w.])[A-Za-z]\w*(?:\[\d+\])?(?:\.[A-Za-z]\w*(?:\[\d+\])?)*/g;

/** `rules[2].words` → `rules[].words` */
const pattern = (path: string) => path.replace(/\[\d+\]/g, '[]');

/** The root of a path (`connector` of `connector.url`, `rules` of `rules[2].kind`). */
const rootOf = (path: string) => /^[A-Za-z][\w-]*/.exec(path)?.[0] ?? path;

/** Whether `path` is one the API writes for a field (known, or under a known field). */
export function isFieldPath(path: string): boolean {
  const p = pattern(path);
  return p in FIELD_LABELS || (/[.[]/.test(p) && rootOf(p) in FIELD_LABELS);
}

/**
 * The connector settings the table above does not name, by their label in the
 * feed form (the schema's title, from the generated catalogue; a name two
 * kinds share, by the first kind's title — under its field, the field's own).
 */
const CONNECTOR_LABELS: ReadonlyMap<string, string> = new Map(
  CONNECTOR_CATALOGUE.flatMap((k) => k.fields.map((f) => [`connector.${f.name}`, f.title] as const))
    .reverse()
    .filter(([path]) => !(path in FIELD_LABELS)),
);

/** Whether the console names a path the API gives by a label of its own (not one made from the path). */
export function hasLabel(path: string): boolean {
  const p = pattern(path);
  if (p in FIELD_LABELS || CONNECTOR_LABELS.has(p) || /^branding\.vars\.--[\w-]+$/.test(p)) return true;
  const item = /^([A-Za-z][\w-]*)\[\]$/.exec(p);
  return item !== null && item[1]! in ITEMS;
}

/** "cardBackground" → "Card background"; "--wallery-gap" → "wallery gap". */
const words = (name: string) => {
  const w = name
    .replace(/^-+/, '')
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return w.charAt(0).toUpperCase() + w.slice(1);
};

/**
 * The label of a field path: the form's (FIELD_LABELS), with the item it is
 * in (`rules[2].words` → "Rule 3: Words"); a path the table does not know by
 * its last name in words ("Card background").
 */
export function fieldLabel(path: string): string {
  const p = pattern(path);
  // a custom variable is known by its own name (--wallery-gap)
  const variable = /^branding\.vars\.(--[\w-]+)$/.exec(p);
  if (variable) return `Custom variable ${variable[1]}`;
  const index = /^([A-Za-z][\w-]*)\[(\d+)\]/.exec(path);
  const item = index ? `${ITEMS[index[1]!] ?? words(index[1]!)} ${Number(index[2]) + 1}` : null;
  const own = FIELD_LABELS[p] ?? CONNECTOR_LABELS.get(p);
  if (index && p === `${index[1]}[]`) return item!;
  const label = own ?? words(p.split('.').pop()!.replace(/\[\]$/, ''));
  return item ? `${item}: ${label}` : label;
}

/** What a field must be, said plainly: the API's words for the rule, rewritten (in order; the first that matches). */
const RULE_WORDS: readonly [RegExp, string | ((...m: string[]) => string)][] = [
  [
    /^must be (null or |empty or )?(?:an absolute http or https URL|a valid http:\/\/ or https:\/\/ URL)(?: of at most \d+ characters)?$/,
    (_, empty) => `must be ${empty ? 'empty or ' : ''}a web address starting with http:// or https://`,
  ],
  [
    /^must be a string of 1 to (\d+) characters, not only spaces$/,
    (_, n) => `needs some text (at most ${n} characters)`,
  ],
  [/^must be a string of at most (\d+) characters$/, (_, n) => `can be at most ${n} characters long`],
  [/^must not have fewer than 1 characters?$/, 'cannot be empty'],
  [/^must not have fewer than (\d+) characters$/, (_, n) => `must be at least ${n} characters long`],
  [/^must not have more than (\d+) characters$/, (_, n) => `can be at most ${n} characters long`],
  [/^must not have fewer than (\d+) items?$/, (_, n) => `needs at least ${n}`],
  [/^must not have more than (\d+) items$/, (_, n) => `can have at most ${n}`],
  [/^must match pattern .*$/, 'has characters that are not allowed here (letters, digits, - and _ are)'],
  [/^must contain text besides tags and spaces$/, 'needs some text (tags and spaces alone do not count)'],
  [/^must contain text besides control characters$/, 'needs some readable text'],
  [/^is not a known field$/, 'is not something this form can set: reload the page and try again'],
  [/^is not a setting of an? \w+ connector$/, 'does not apply to this network'],
  [/^must be a positive integer$/, 'must be a whole number above 0'],
  [/^must be an integer of 0 or more$/, 'must be a whole number, 0 or more'],
  [/^must be an integer from (\d+) to (\d+)$/, (_, a, b) => `must be a whole number from ${a} to ${b}`],
  [/^must be true or false$/, 'must be on or off'],
  [/^must be (?:null or )?a hex colour such as (#\w+)(?: or #\w+)?$/, (_, c) => `must be a colour such as ${c}`],
  [/^must be a slug of (.*)$/, (_, rest) => `must be ${rest}`],
  [/^must be null \(clear\) or an object with .*$/, 'must be empty (none) or a button with its text, link and colours'],
  [/^must be a day as YYYY-MM-DD$/, 'must be a date such as 2026-05-31'],
  [/^must be (?:a )?boolean$/, 'must be on or off'],
  [/^must be (?:a )?(?:integer|number)$/, 'must be a number'],
  [/^must be (?:a )?string$/, 'must be text'],
  [/^must be (?:an )?object$/, 'is not in the form the console expects: reload the page and try again'],
];

/** Words of the API that mean nothing to a marketer, in any rule. */
const JARGON: readonly [RegExp, string][] = [
  [
    /must be an origin: http\(s\):\/\/host\[:port\], without a path(?: \(e\.g\. https:\/\/shop\.example\))?/g,
    'must be a site’s address alone, such as https://shop.example (no path after it)',
  ],
  [/\ba positive integer\b/g, 'a whole number above 0'],
  [/\bnull\b/g, 'empty'],
  [/\ban integer\b/g, 'a whole number'],
  [/\bintegers\b/g, 'whole numbers'],
  [/\ba string\b/g, 'text'],
];

/** A rule the API gave (`must be …`) in plain words; other paths it names by their labels. */
function plainRule(rule: string): string {
  for (const [re, to] of RULE_WORDS) {
    const m = re.exec(rule);
    if (m) return typeof to === 'string' ? to : to(...m);
  }
  let out = rule;
  // "exactly one of hashtag, account is required" (a connector's one-of rule)
  const one = /^exactly one of ([\w, ]+) is required$/.exec(out);
  if (one) {
    const names = one[1]!.split(/,\s*/).map((n) => `“${fieldLabel(`connector.${n}`)}”`);
    return `needs either ${names.join(' or ')}, not both`;
  }
  for (const [re, to] of JARGON) out = out.replace(re, to);
  return namePaths(out);
}

/** A text not led by a field path (the console's own, or the API's "each post id …"): its jargon and paths only. */
function plainWords(text: string): string {
  let out = text;
  for (const [re, to] of JARGON) out = out.replace(re, to);
  return namePaths(out);
}

/** Every field path inside a text (dotted or indexed, under a known field) by its label in quotes. */
function namePaths(text: string): string {
  return text.replace(INNER, (token) => (/[.[]/.test(token) && isFieldPath(token) ? `“${fieldLabel(token)}”` : token));
}

const sentence = (text: string) => {
  const t = text.trim();
  if (t === '') return t;
  const first = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
};

/**
 * One field's refusal as a sentence naming the field: by `label` (the form's
 * label of the control showing it) when the API named that field itself,
 * else by the label of the path it named (a part of it: `connector.hashtag`
 * shown by a connector's field). A message not starting with a field path
 * (one the console made itself) keeps its words, less the API's jargon.
 */
export function fieldMessage(message: string, label?: string): string {
  const m = LEADING.exec(message.trim());
  if (!m || !isFieldPath(m[1]!)) return plainWords(message);
  let [, path, separator, rest] = m as unknown as [string, string, string, string];
  // "rules[0]: action must be …" (a rule's field, named again after its item): the field's own label
  const inner = separator.startsWith(':') ? LEADING.exec(rest) : null;
  if (inner && !inner[2]!.startsWith(':') && hasLabel(`${path}.${inner[1]}`)) {
    [path, separator, rest] = [`${path}.${inner[1]}`, ' ', inner[3]!];
  }
  const plainPath = !/[.[]/.test(path);
  const name = label && (plainPath || !(pattern(path) in FIELD_LABELS)) ? label : fieldLabel(path);
  return sentence(`${name}${separator.startsWith(':') ? ': ' : ' '}${plainRule(rest)}`);
}

/** A FieldError as a sentence naming its field by the console's label (a message not led by its path: in plain words). */
export const fieldErrorText = (e: FieldError) =>
  sentence(fieldMessage(e.message, e.field === 'url' && /\bslug\b/.test(e.message) ? 'URL slug' : fieldLabel(e.field)));

/** What an API refusal looks like here (client.ts's ApiError, matched by shape). */
interface Refusal {
  status: number;
  message: string;
  fieldErrors: readonly FieldError[];
}

const isRefusal = (e: unknown): e is Refusal =>
  e instanceof Error &&
  typeof (e as Partial<Refusal>).status === 'number' &&
  Array.isArray((e as Partial<Refusal>).fieldErrors);

/** A refusal other than a 400's, in plain words: by status, then by what it says. */
const STATUS_WORDS: readonly [(r: Refusal) => boolean, string | ((r: Refusal, m: string[]) => string), RegExp?][] = [
  [
    (r) => r.status === 401,
    'This operator token is not valid (unknown, revoked, or not an operator token): sign in with a valid one.',
    /^a valid operator token is required/,
  ],
  [
    (r) => r.status === 403,
    (_, m) =>
      `Your token’s role (${m[1]}) cannot ${m[2]}: that needs ${m[3]}. Ask an admin for a token with that role.`,
    /^this token's role \((\w+)\) cannot (.+): that needs (.+)$/,
  ],
  [
    (r) => r.status === 403,
    (_, m) => `Your token is limited to some accounts and cannot ${m[1]}: that needs a token for every account.`,
    /^this token is limited to accounts and cannot (.+): that needs .*$/,
  ],
  [
    (r) => r.status === 404,
    (_, m) =>
      `${sentence(`${m[1]} ${m[2]}`).replace(/\.$/, '')} was not found: it was deleted, or this token cannot see it.`,
    /^(.+?) (\d+|\(given\)) not found$/,
  ],
  [
    (r) => r.status === 409,
    (_, m) => `The URL slug “${m[1]}” is already used by wall ${m[2]} of this account: choose another.`,
    /^url "(.*)" is already used by wall (\d+) of account \d+$/,
  ],
  [
    (r) => r.status === 409,
    'Someone changed this at the same moment: reload the page and try again.',
    /concurrent change|changed during the action|removed meanwhile/,
  ],
  [(r) => r.status === 413, 'That is more than Wallery takes in one go: make it smaller and try again.'],
  [(r) => r.status === 429, 'Too many changes in a short time: wait a minute, then try again.'],
  [
    (r) => r.status >= 500,
    'Wallery could not do this just now (a problem on its side, not in what you entered): try again in a moment; if it keeps happening, tell whoever runs Wallery.',
  ],
];

/**
 * Any error as words for the person at the console: a 400 as the sentences
 * of its fields (each naming its field by its label), other refusals by
 * what they mean and what to do.
 */
export function messageOf(error: unknown): string {
  if (!isRefusal(error)) return error instanceof Error ? error.message : String(error);
  if (error.status === 400 && error.fieldErrors.length > 0) {
    const each = error.fieldErrors.filter((e) => e.field !== 'body').map(fieldErrorText);
    if (each.length === 0) return 'The form could not be read: reload the page and try again.';
    return `Please check: ${each.join(' ')}`;
  }
  if (error.status === 400) return sentence(fieldMessage(error.message));
  for (const [when, say, re] of STATUS_WORDS) {
    if (!when(error)) continue;
    const m = re ? re.exec(error.message) : [];
    if (!m) continue;
    return typeof say === 'string' ? say : say(error, m);
  }
  return sentence(namePaths(error.message));
}

// ---------- a failing feed ----------

/** The setting that lets a feed on a local or private network be read (an environment variable of the server). */
export const PRIVATE_NETWORKS_SETTING = 'INGEST_ALLOW_PRIVATE_NETWORKS';

/** A feed's last error by what it says: the cause and the fix, in one sentence. */
const FEED_FAILURES: readonly [RegExp, (...m: string[]) => string][] = [
  [
    /refused: (\S+?)(?: resolves to \S+,)? is an? (\w+) address|refused: \S+ resolves to (\S+), an? (\w+) address/,
    () =>
      `Wallery did not read this feed because its address is on a local or private network, which it refuses by default; if the feed is meant to be read there, ask whoever runs Wallery to set ${PRIVATE_NETWORKS_SETTING} (to on, or to that network’s range) and restart it.`,
  ],
  [
    /refused: \S+ URLs are not fetched|not a valid URL/,
    () => 'The feed’s address is not a web address: edit the feed so its URL starts with http:// or https://.',
  ],
  [
    /URLs with credentials/,
    () =>
      'The feed’s address contains a user name or password, which Wallery does not send: edit the feed and take them out of the URL.',
  ],
  [
    /ENOTFOUND|EAI_AGAIN/,
    () => 'The feed’s site name could not be found: check the feed’s URL for a typo (edit the feed).',
  ],
  [
    /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH/,
    () =>
      'Nothing answered at the feed’s address: the site may be down, or the URL (its port) is wrong — check it; Wallery keeps trying on its own.',
  ],
  [
    /did not answer within|took longer than|timed? ?out/i,
    () =>
      'The feed’s site took too long to answer; Wallery keeps trying on its own — if it lasts, check that the site works.',
  ],
  [/^HTTP 404\b/, () => 'The feed’s site says there is no such page (404): check the feed’s URL (edit the feed).'],
  [/^HTTP 410\b/, () => 'The feed’s site says the feed is gone for good (410): find its new URL, or disable the feed.'],
  [
    /^HTTP 40[13]\b/,
    () =>
      'The feed’s site refuses to let Wallery read it (private or needs a login): use a public feed, or ask the site’s owner.',
  ],
  [
    /^HTTP 429\b/,
    () => 'The feed’s site asks Wallery to slow down (429); Wallery waits and tries again on its own, nothing to do.',
  ],
  [
    /^HTTP 5\d\d\b/,
    () =>
      'The feed’s site has a problem of its own (a server error); Wallery keeps trying — if it lasts, tell the site’s owner.',
  ],
  [
    /got an HTML page|an HTML error page/,
    () => 'The URL leads to a web page, not a feed: use the address of its RSS or Atom feed (edit the feed).',
  ],
  [
    /malformed XML|not XML|document without elements|malformed JSON|expected (?:a|an|the) /,
    () =>
      'What the feed’s URL sends is not a feed Wallery can read: check the URL, or ask the site’s owner to fix the feed.',
  ],
  [
    /more than \d+ bytes|announced \d+ bytes/,
    () => 'The feed is larger than Wallery reads at once: use a feed with fewer or shorter items.',
  ],
  [/redirects/, () => 'The feed’s URL redirects again and again: use its final address (edit the feed).'],
];

/** A feed's last error as cause and fix in one sentence; the API's own words when they say nothing known. */
export function feedFailureText(lastError: string): string {
  for (const [re, say] of FEED_FAILURES) {
    const m = re.exec(lastError);
    if (m) return say(...m);
  }
  return sentence(`The last poll failed: ${lastError}`);
}
