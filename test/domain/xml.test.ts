// Unit tests of src/http/xml.ts, the XML writer (contract §1), checked with an
// independent parser (fast-xml-parser) and an independent prediction.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeXmlText, renderXml, XML_DECLARATION } from '../../src/http/xml.js';
import { envelopeToXml, parseXmlDoc, stripXmlForbidden } from '../helpers/xml.js';

describe('escapeXmlText', () => {
  it('escapes the five characters', () => {
    expect(escapeXmlText(`a & b < c > d " e ' f`)).toBe('a &amp; b &lt; c &gt; d &quot; e &apos; f');
  });

  it('escapes an already escaped text again (no double-decoding on the way back)', () => {
    expect(escapeXmlText('&amp; &lt;')).toBe('&amp;amp; &amp;lt;');
  });

  it('drops what XML 1.0 cannot carry, keeps tab, LF and CR (CR as a reference)', () => {
    expect(escapeXmlText('a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg')).toBe('abcdefg');
    expect(escapeXmlText('\t\n')).toBe('\t\n');
    expect(escapeXmlText('\r')).toBe('&#13;');
    expect(escapeXmlText('x\uFFFEy\uFFFFz')).toBe('xyz');
    expect(escapeXmlText('lone \uD800 high, lone \uDC00 low')).toBe('lone  high, lone  low');
    expect(escapeXmlText('pair 🎉 \uD83C\uDF89')).toBe('pair 🎉 🎉');
    expect(escapeXmlText('\u0085\u2028\u00A0')).toBe('\u0085\u2028\u00A0');
  });

  it('any string: the escaped text parses back to the string minus forbidden characters', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.string({ unit: 'binary', maxLength: 1 }),
            fc.constantFrom('<', '&', '>', '"', "'", '\r', '\uD800', '\uDFFF', '\u0000'),
          ),
        }),
        (s) => {
          const doc = parseXmlDoc(`${XML_DECLARATION}\n<xml><v>${escapeXmlText(s)}</v></xml>`);
          const v = doc.children[0]?.v;
          expect(v).toBe(stripXmlForbidden(s));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('renderXml', () => {
  it('declaration line, root xml, fields in the given order', () => {
    const out = renderXml({ responseCode: 200, responseStatus: 'success', responseMessage: 'ok' });
    expect(out.split('\n')[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>');
    expect(parseXmlDoc(out).tree).toEqual({
      xml: [{ responseCode: '200' }, { responseStatus: 'success' }, { responseMessage: 'ok' }],
    });
  });

  it('null → null, "" → empty element, numbers as JSON prints them', () => {
    const out = renderXml({ a: null, b: '', c: 1.5, d: 0, e: -3, f: 1e21, g: 0.1 + 0.2 });
    expect(out).toContain('<a>null</a>');
    expect(out).toMatch(/<b\s*\/>|<b><\/b>/);
    expect(out).toContain('<c>1.5</c>');
    expect(out).toContain('<d>0</d>');
    expect(out).toContain('<e>-3</e>');
    expect(out).toContain(`<f>${JSON.stringify(1e21)}</f>`);
    expect(out).toContain(`<g>${JSON.stringify(0.1 + 0.2)}</g>`);
  });

  it('arrays of objects → repeated siblings; empty array → nothing', () => {
    const out = renderXml({ responseData: { wall: { n: 'w' }, posts: [{ id: '1' }, { id: '2' }], none: [] } });
    expect(parseXmlDoc(out).tree).toEqual({
      xml: [{ responseData: [{ wall: [{ n: 'w' }] }, { posts: [{ id: '1' }] }, { posts: [{ id: '2' }] }] }],
    });
    expect(out).not.toContain('none');
  });

  it('hotspot → two repeated elements', () => {
    const out = renderXml({ postProducts: [{ hotspot: ['left:1%', 'top:2.5%'] }] });
    expect(out).toContain('<hotspot>left:1%</hotspot><hotspot>top:2.5%</hotspot>');
  });

  it('childNode → ONE element holding image, video, image, video; empty → one empty element', () => {
    const out = renderXml({
      posts: [
        {
          childNode: [
            { image: 'a', video: '' },
            { image: 'b', video: 'v' },
          ],
        },
        { childNode: [] },
      ],
    });
    expect(parseXmlDoc(out).tree).toEqual({
      xml: [
        { posts: [{ childNode: [{ image: 'a' }, { video: '' }, { image: 'b' }, { video: 'v' }] }] },
        { posts: [{ childNode: '' }] },
      ],
    });
  });

  it('any envelope of strings, numbers and nulls renders as the contract predicts', () => {
    const scalar = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constant(null),
    );
    const name = fc.constantFrom('a', 'b', 'content', 'postId', 'x1');
    const record = fc.dictionary(name, scalar, { maxKeys: 5 });
    const envelope = fc.record({
      responseCode: fc.constant(200),
      responseStatus: fc.constant('success'),
      responseData: fc.array(fc.record({ wall: record, posts: fc.array(record, { maxLength: 3 }) }), {
        minLength: 1,
        maxLength: 1,
      }),
    });
    fc.assert(
      fc.property(envelope, (env) => {
        const clean = JSON.parse(
          JSON.stringify(env, (_k, v: unknown) => (typeof v === 'string' ? stripXmlForbidden(v) : v)),
        );
        // -0 prints as 0 in JSON; the prediction follows JSON
        expect(parseXmlDoc(renderXml(env)).tree).toEqual(envelopeToXml(clean));
      }),
      { numRuns: 300 },
    );
  });
});
