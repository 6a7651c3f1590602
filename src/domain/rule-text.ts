// A post's text as the moderation rules and the spam signals read it:
// stored HTML read as text, and text folded for comparison. Pure; below
// src/domain/rules.ts and src/domain/spam.ts, which both read it.
import { decodeHTML } from 'entities';

/** Lower case, accents and other marks removed, compatibility forms folded: `Crème` → `creme`. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * Stored post HTML (already sanitized to a few formatting tags) → the text the
 * rules read: tags become spaces, character references are decoded (all of
 * HTML's, by `entities`: `Caf&eacute;` reads as `Café`). Cheap: no parse tree.
 */
export function ruleText(html: string): string {
  if (!/[<&]/.test(html)) return html;
  return decodeHTML(html.replace(/<[^>]*>/g, ' '));
}
