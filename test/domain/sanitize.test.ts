// Contract §7, "Markup and URLs in writes", on the pure rules: the content
// sanitizer, plain text and URLs, against the attack corpus and as properties.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  emojiImageHtml,
  normalizeHttpUrl,
  plainTextOf,
  sanitizeIngestedHtml,
  sanitizeWrittenHtml,
  withoutControls,
} from '../../src/domain/sanitize.js';
import {
  cleanWrite,
  CTA_RULES,
  CUSTOM_POST_RULES,
  FEED_RULES,
  MODERATION_RULES,
  NAME_RULES,
  PRODUCT_RULES,
  type FieldRule,
} from '../../src/domain/writes.js';
import { contentProblems, textProblems, urlProblems } from '../helpers/html-safety.js';
import { MARKUP_PAYLOADS, URL_PAYLOADS } from '../helpers/xss-corpus.js';

const REL = 'rel="nofollow noopener noreferrer"';

describe('written content', () => {
  it.each(MARKUP_PAYLOADS)('%j: nothing executable is left, in any context', (payload) => {
    const stored = sanitizeWrittenHtml(payload);
    expect(contentProblems(stored)).toEqual([]);
    // and a second pass changes nothing: what is stored is what the allowlist keeps
    expect(sanitizeWrittenHtml(stored)).toBe(stored);
  });

  const benign = [
    'Tom & Jerry "quoted" 😀 <b>bold</b>',
    `Tom & Jerry "quoted" 😀 <b>bold</b> <a href="https://x.example/" ${REL}>x</a>`,
    'a < b > c, I <3 you, 1<2, x&y, &amp; &lt;b&gt; &nbsp; &eacute; &copy',
    '<p>one<br>two</p><p>three<br/>four</p>',
    '<ul><li>a<li>b</ul><ol><li>c</li></ol>',
    '<blockquote>q</blockquote><pre>  code\n  more</pre><code>x</code>',
    '<i>i</i><em>em</em><strong>s</strong><u>u</u><s>s</s><span>span</span>',
    '<B>upper</B> <P>case</P>',
    '<p>unclosed<p>paragraphs',
    'line one\nline two\r\nline three\ttab',
    'cr &#13;\r\nlf &#13;\n & <b>b</b>',
    // htmlparser2 8 alone would drop the text before an `&#x` at the very end
    'see &#x',
    '<b>b</b> & &#X',
    `<a href='https://x.example/a?b=1&c=2' title=t ${REL}>single quotes</a>`,
  ];
  it.each(benign)('%j: the allowlist removes nothing, so it is stored byte for byte', (html) => {
    expect(sanitizeWrittenHtml(html)).toBe(html);
  });

  it('a link without the exact rel gets it in its start tag; the rest stays byte for byte', () => {
    expect(sanitizeWrittenHtml('Tom & Jerry <a href="https://x.example/">x</a> 😀')).toBe(
      `Tom & Jerry <a href="https://x.example/" ${REL}>x</a> 😀`,
    );
    expect(sanitizeWrittenHtml('& <a href="https://x.example/" rel="opener">x</a>')).toBe(
      `& <a href="https://x.example/" ${REL}>x</a>`,
    );
    expect(sanitizeWrittenHtml('& <A HREF=https://x.example/>x</A><a href="https://y.example"/>y</a>')).toBe(
      `& <A HREF=https://x.example/ ${REL}>x</A><a href="https://y.example" ${REL}/>y</a>`,
    );
  });

  it('when something is removed, the rest is kept as sanitize-html serializes it', () => {
    expect(sanitizeWrittenHtml('Tom & Jerry <div>x</div><del>gone</del>')).toBe('Tom &amp; Jerry xgone');
    expect(sanitizeWrittenHtml('<p style="color:red" onclick="x()">a & b</p>')).toBe('<p>a &amp; b</p>');
    expect(sanitizeWrittenHtml('<a href="javascript:alert(1)" title="t">x</a> & y')).toBe('<span>x</span> &amp; y');
    expect(sanitizeWrittenHtml('<a href="mailto:a@b.example">m</a>')).toBe('<span>m</span>');
    expect(sanitizeWrittenHtml('ok <script>alert(1)</script><style>p{}</style>end')).toBe('ok end');
    // a stray end tag or a token only a table reads would mean more elsewhere
    expect(sanitizeWrittenHtml('x</b>y & z')).toBe('xy &amp; z');
    expect(sanitizeWrittenHtml('a<tr onmouseover=alert(1)>b')).toBe('ab');
    expect(sanitizeWrittenHtml('<b><i>misnested</b></i>')).toBe('<b><i>misnested</i></b>');
    // nothing may be left open at the end
    expect(sanitizeWrittenHtml('x & <')).toBe('x &amp; &lt;');
    expect(sanitizeWrittenHtml('<b title="x & y')).toBe('');
  });

  const pieces = fc.constantFrom(
    ...MARKUP_PAYLOADS,
    '<b>',
    '</b>',
    '<a href="https://x.example/">',
    '</a>',
    '&',
    '<',
    '"',
  );

  it('for any string, what is stored holds nothing executable and is stable (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(pieces, fc.string({ unit: 'grapheme' }), fc.string()), { maxLength: 8 }),
        (parts) => {
          const stored = sanitizeWrittenHtml(parts.join(''));
          expect(contentProblems(stored)).toEqual([]);
          expect(sanitizeWrittenHtml(stored)).toBe(stored);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('any string without markup is stored exactly as sent (property)', () => {
    const noMarkup = fc
      .array(
        fc.oneof(
          fc.string({ unit: 'grapheme' }),
          fc.constantFrom(
            ' < ',
            '<3',
            '<=',
            '<>',
            '&',
            '&amp;',
            '&notin',
            '&#0;',
            '&#13;',
            '&nbsp',
            '&copy=3',
            '\r\n',
            '"',
            "'",
          ),
        ),
        {
          maxLength: 8,
        },
      )
      .map((parts) => parts.join(''))
      .filter((s) => !/<[A-Za-z!/?]/.test(s) && !s.endsWith('<'));
    fc.assert(
      fc.property(noMarkup, (text) => {
        expect(sanitizeWrittenHtml(text)).toBe(text);
        expect(plainTextOf(text)).toBe(text);
      }),
      { numRuns: 400 },
    );
  });
});

describe('plain text', () => {
  it.each(MARKUP_PAYLOADS)('%j: no markup is left', (payload) => {
    expect(textProblems(plainTextOf(payload))).toEqual([]);
  });

  it('tags are removed and the text between them kept; text without markup stays as sent', () => {
    expect(plainTextOf('Tom & Jerry "quoted" 😀 a < b &amp;')).toBe('Tom & Jerry "quoted" 😀 a < b &amp;');
    expect(plainTextOf('<b>Tom</b> &amp; <i>Jerry</i>')).toBe('Tom & Jerry');
    expect(plainTextOf('Ann <script>alert(1)</script>Lee')).toBe('Ann Lee');
    expect(plainTextOf('<<b>script>alert(1)<</b>/script>Bo')).toBe('Bo');
    expect(plainTextOf('x</')).toBe('x/');
  });

  it('for any string, no markup is left (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...MARKUP_PAYLOADS, '<', '</', '&lt;'), fc.string()), { maxLength: 8 }),
        (parts) => {
          expect(textProblems(plainTextOf(parts.join('')))).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('URLs', () => {
  it.each(URL_PAYLOADS)('%j: refused, or http(s) in normalized form', (payload) => {
    const url = normalizeHttpUrl(payload);
    if (url !== null) expect(urlProblems(url)).toEqual([]);
  });

  it('normalized as the WHATWG URL parser serializes; hosts no real host has are refused', () => {
    expect(normalizeHttpUrl('https://cdn.example/a.jpg"onerror="alert(8)')).toBe(
      'https://cdn.example/a.jpg%22onerror=%22alert(8)',
    );
    expect(normalizeHttpUrl('HTTPS://EXAMPLE.COM')).toBe('https://example.com/');
    expect(normalizeHttpUrl('https://ä.example/ü?q=<x>')).toBe('https://xn--4ca.example/%C3%BC?q=%3Cx%3E');
    expect(normalizeHttpUrl('http://[::1]:8080/x')).toBe('http://[::1]:8080/x');
    for (const bad of [
      'https://x"y/',
      'https://exa%22mple.com/',
      "https://a'b/",
      'javascript:alert(1)',
      'ftp://x/',
      'x',
    ])
      expect(normalizeHttpUrl(bad)).toBeNull();
  });
});

describe('field rules of a write', () => {
  it('each field by its rule; refused URLs and names left empty are named', () => {
    expect(
      cleanWrite(
        {
          content: '<b>b</b><script>x</script>',
          authorName: '<i>Ann</i>',
          postFile: 'https://cdn.example/a b.jpg',
          authorPicture: '',
          link: 'javascript:alert(1)',
        },
        CUSTOM_POST_RULES,
      ),
    ).toEqual({
      value: {
        content: '<b>b</b>',
        authorName: 'Ann',
        postFile: 'https://cdn.example/a%20b.jpg',
        authorPicture: '',
        link: 'javascript:alert(1)',
      },
      problems: [{ field: 'link', message: 'link must be an absolute http or https URL of at most 2048 characters' }],
    });
    expect(cleanWrite({ name: '<b> </b>', image: 'https://x"/', price: 1 }, PRODUCT_RULES).problems).toEqual([
      { field: 'name', message: 'name must contain text besides tags and spaces' },
      {
        field: 'image',
        message: 'image must be empty or an absolute http or https URL of at most 2048 characters',
      },
    ]);
  });
});

describe('control characters in a write', () => {
  // ESC [8m hides text; OSC 52 writes the clipboard; U+009B is a one-character CSI
  const HIDDEN = 'Summer \u001b[8mhidden\u001b[0m';
  const OSC52 = '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007';
  /** What no stored text may hold: C0 (but tab, LF, CR), DEL, C1. */
  const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
  /** What no one-line text may hold: every C0, DEL, C1. */
  const ANY_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

  it('are removed from content and names (tab, LF and CR kept: whitespace, no terminal command)', () => {
    expect(withoutControls(`a\tb\r\nc ${OSC52} \u009b31m \u0085 \u007f \u0000`, 'multiline')).toBe(
      'a\tb\r\nc ]52;c;Y3VybCBldmlsLnNoIHwgc2g= 31m   ',
    );
    expect(withoutControls(`a\tb\r\nc\u001b`, 'single')).toBe('a b  c');
    expect(
      cleanWrite({ content: `<b>Sale</b> ${OSC52}\nline two\u009b`, authorName: `${HIDDEN}\nAnn` }, CUSTOM_POST_RULES)
        .value,
    ).toEqual({
      content: '<b>Sale</b> ]52;c;Y3VybCBldmlsLnNoIHwgc2g=\nline two',
      authorName: 'Summer [8mhidden[0m\nAnn',
    });
    expect(cleanWrite({ name: HIDDEN }, NAME_RULES).value.name).toBe('Summer [8mhidden[0m');
    expect(cleanWrite({ text: HIDDEN, url: 'https://x.example/\u001b[8m' }, CTA_RULES).value).toEqual({
      text: 'Summer [8mhidden[0m',
      url: 'https://x.example/%1B[8m',
    });
  });

  it('content with nothing else to remove is stored exactly as sent without them', () => {
    const sent = `Tom & Jerry "quoted" 😀 <b>bold</b> a < b`;
    expect(cleanWrite({ content: `${sent}\u001b[0m` }, CUSTOM_POST_RULES).value.content).toBe(`${sent}[0m`);
  });

  it('a character reference the rules decode (&#27;) does not bring one back', () => {
    // the allowlist serializes anew what it changed; plain text decodes references
    expect(cleanWrite({ content: '<div>&#27;[8m x</div>' }, CUSTOM_POST_RULES).value.content).toBe('[8m x');
    // (`&#x9b;` is `›` to a browser, by HTML's table for C1 references; `&#x81;` stays U+0081)
    expect(cleanWrite({ name: '<b>a</b>&#27;[8m&#x81;&#x9b;b' }, NAME_RULES).value.name).toBe('a[8m›b');
  });

  it('U+0000 stays U+FFFD (text every store can hold); a name of nothing but controls is refused', () => {
    expect(cleanWrite({ name: 'a\u0000b' }, NAME_RULES).value.name).toBe('a\uFFFDb');
    expect(cleanWrite({ name: '\u001b\u0007' }, NAME_RULES).problems).toEqual([
      { field: 'name', message: 'name must contain text besides tags and spaces' },
    ]);
  });

  it('settings (a connector, moderation rules): every string on one line without them, the rest as given', () => {
    const connector = {
      kind: 'mastodon',
      instance: 'https://m.example/\u001b',
      hashtag: 'sale\u009b',
      reposts: 'skip',
    };
    expect(cleanWrite({ name: 'n', connector }, FEED_RULES).value.connector).toEqual({
      kind: 'mastodon',
      instance: 'https://m.example/',
      hashtag: 'sale',
      reposts: 'skip',
    });
    const rules = [
      { kind: 'author', action: 'reject', network: null, usernames: ['a<b\u001b', '\u001b[8m', '\u0007'] },
    ];
    expect(cleanWrite({ rules }, MODERATION_RULES)).toEqual({
      value: { rules: [{ kind: 'author', action: 'reject', network: null, usernames: ['a<b', '[8m', ''] }] },
      problems: [
        {
          field: 'rules[0].usernames[2]',
          message: 'rules[0].usernames[2] must contain text besides control characters',
        },
      ],
    });
  });

  const anyText = fc.array(
    fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom(HIDDEN, OSC52, '&#27;', '&#x9b;', '&#7;', '&#0;', '<b>', '</b>', '<div>', '\r\n', '\t'),
      fc.string({ unit: fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)) }),
    ),
    { maxLength: 8 },
  );

  it('for any strings, no field of any write stores one, but tab, LF and CR in text (property)', () => {
    const tables = [CUSTOM_POST_RULES, NAME_RULES, PRODUCT_RULES, CTA_RULES] as Record<string, FieldRule>[];
    fc.assert(
      fc.property(fc.constantFrom(...tables), fc.array(anyText, { minLength: 9, maxLength: 9 }), (rules, texts) => {
        const given = Object.fromEntries(Object.keys(rules).map((k, i) => [k, texts[i]!.join('')]));
        const { value, problems } = cleanWrite(given, rules);
        // a refused field is not stored
        const refused = new Set(problems.map((p) => p.field));
        for (const [field, stored] of Object.entries(value)) {
          if (!refused.has(field))
            expect(stored, field).not.toMatch(/url/i.test(rules[field]!) ? ANY_CONTROL : CONTROL);
        }
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.array(fc.array(anyText, { maxLength: 3 }), { maxLength: 3 }), (lists) => {
        const rules = lists.map((words) => ({ kind: 'keyword', words: words.map((w) => w.join('')) }));
        const { value } = cleanWrite({ rules }, MODERATION_RULES);
        for (const word of value.rules.flatMap((r) => r.words)) expect(word).not.toMatch(ANY_CONTROL);
      }),
      { numRuns: 200 },
    );
  });
});

describe('ingestion shares the allowlist', () => {
  it('text before an `&#x` at the very end is kept', () => {
    expect(sanitizeIngestedHtml('<p>a &amp; b &#x')).toBe('<p>a &amp; b &amp;#x</p>');
  });

  it('span kept, del as s, mailto links, a link without an allowed scheme becomes a span', () => {
    expect(
      sanitizeIngestedHtml(
        '<span class="h">#<span>tag</span></span> <del>old</del> <a href="mailto:a@b.example">m</a> <a href="vbscript:x">v</a>',
      ),
    ).toBe(
      `<span>#<span>tag</span></span> <s>old</s> <a href="mailto:a@b.example" ${REL} target="_blank">m</a> <span>v</span>`,
    );
  });

  it.each(MARKUP_PAYLOADS)('%j: nothing executable is left', (payload) => {
    expect(contentProblems(sanitizeIngestedHtml(payload)).filter((p) => !/mailto/.test(p))).toEqual([]);
  });
});

describe('custom emoji: the one image ingested content may hold, never a write', () => {
  const EMOJI = { shortcode: 'blob', url: 'https://cdn.example/e/blob.png?v=1&s=2' };
  const IMG =
    '<img src="https://cdn.example/e/blob.png?v=1&amp;s=2" alt=":blob:" title=":blob:" class="emoji" width="20" height="20" />';

  it('is built from the emoji list: http(s) source in normalized form, alt and title the shortcode, fixed size', () => {
    expect(emojiImageHtml(EMOJI)).toBe(IMG);
    for (const url of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '//cdn.example/x.png', 'https://a"b/x.png'])
      expect(emojiImageHtml({ shortcode: 'blob', url })).toBe(':blob:');
    expect(emojiImageHtml({ shortcode: 'x" onerror="alert(1)', url: EMOJI.url })).toBe(
      ':x&quot; onerror=&quot;alert(1):',
    );
  });

  it('replaces known shortcodes in text only, never in attribute values', () => {
    expect(
      sanitizeIngestedHtml('<p>:blob: <a href="https://x.example/:blob:">:blob:</a> :nope:</p>', { emojis: [EMOJI] }),
    ).toBe(`<p>${IMG} <a href="https://x.example/:blob:" ${REL} target="_blank">${IMG}</a> :nope:</p>`);
  });

  it('a write keeps no image, not even one shaped as an emoji (contract §7)', () => {
    expect(sanitizeWrittenHtml(`<p>hi ${IMG}</p>`)).toBe('<p>hi </p>');
    expect(sanitizeIngestedHtml(`<p>hi ${IMG}</p>`)).toBe('<p>hi </p>');
  });
});
