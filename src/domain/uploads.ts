// Attendee uploads (issue 33): the people in the room post to the wall from
// a submission page, with no app and no account. What a submission page is
// set to, its limits, what an upload stores, and the page's words in each
// language it speaks. Pure: the store keeps the settings
// (src/store/uploads.ts), src/ingest/upload.ts writes an upload as a post,
// src/http/submit/ serves the page.
import type { Arrival } from './arrival.js';

/** The network name of an uploaded post, everywhere a post's network is shown. */
export const UPLOAD_NETWORK = 'upload';
/** The feed uploads are written on (made on first use), as the v2 feed list shows it. */
export const UPLOAD_FEED = { name: 'Attendee uploads', source: 'upload', sourceType: 'submission page' } as const;
/** contract §6: 1 text, 2 image */
export const UPLOAD_POST_TYPE = { text: 1, image: 2 } as const;

/** `queue`: every upload waits for a moderator (default); `wall`: the wall's moderation mode and rules decide. */
export const UPLOAD_MODERATION = ['queue', 'wall'] as const;
export type UploadModeration = (typeof UPLOAD_MODERATION)[number];

export const UPLOAD_LANGUAGES = ['en', 'de', 'fr'] as const;
export type UploadLanguage = (typeof UPLOAD_LANGUAGES)[number];

export const UPLOAD_LIMITS = Object.freeze({
  textMax: 500,
  nameMax: 60,
  titleMax: 120,
  termsMax: 4000,
  consentMax: 1000,
  /** the largest photo an operator may allow (a phone's HEIC or JPEG is 2–8 MB) */
  maxBytesCeiling: 30 * 1024 * 1024,
  maxBytesFloor: 256 * 1024,
});

/** A wall's submission page as the management API reads and writes it. */
export interface SubmissionSettings {
  enabled: boolean;
  title: string | null;
  terms: string;
  consentText: string;
  consentVersion: number;
  moderation: UploadModeration;
  language: UploadLanguage;
  maxBytes: number;
  perIpPerHour: number;
  perWallPerMinute: number;
}

export const DEFAULT_SUBMISSION: Readonly<Omit<SubmissionSettings, 'consentVersion'>> = Object.freeze({
  enabled: false,
  title: null,
  terms: '',
  consentText:
    'I took this photo or may share it, and I agree that it and my name are shown on this wall and kept by its organiser until I delete it.',
  moderation: 'queue',
  language: 'en',
  maxBytes: 15 * 1024 * 1024,
  perIpPerHour: 30,
  perWallPerMinute: 60,
});

/**
 * The arrival of an upload: under `queue`, what the rules and the mode would
 * publish waits for a moderator instead (a rejection, or a hold of the image
 * check, stays as it is); under `wall`, the wall's own arrival.
 */
export function uploadArrival(moderation: UploadModeration, arrival: Arrival): Arrival {
  if (moderation === 'queue' && arrival.state === 'approved') return { state: 'pending', by: null, reason: null };
  return arrival;
}

/** A display name or a line of text as stored: plain, one line for a name, no control characters, trimmed. */
export function plainUploadText(value: string, max: number, oneLine: boolean): string {
  let text = value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '');
  if (oneLine) text = text.replace(/\s+/g, ' ');
  return [...text.trim()].slice(0, max).join('');
}

/** The words of the submission page, in each of its languages. */
export interface UploadWords {
  heading: string;
  intro: string;
  photo: string;
  photoHint: string;
  choosePhoto: string;
  changePhoto: string;
  text: string;
  textHint: string;
  name: string;
  nameHint: string;
  terms: string;
  submit: string;
  sending: string;
  checking: string;
  doneTitle: string;
  doneQueued: string;
  donePublished: string;
  deleteLinkTitle: string;
  deleteLinkHelp: string;
  copy: string;
  copied: string;
  another: string;
  closedTitle: string;
  closedText: string;
  deleteTitle: string;
  deleteText: string;
  deleteConfirm: string;
  deletedTitle: string;
  deletedText: string;
  goneTitle: string;
  goneText: string;
  needsScript: string;
  poweredBy: string;
  errors: Record<UploadProblem, string>;
}

/** Why an upload is refused, in the visitor's words (src/http/submit/ answers with the code and these). */
export type UploadProblem =
  | 'empty'
  | 'name'
  | 'consent'
  | 'challenge'
  | 'replay'
  | 'too_large'
  | 'not_a_picture'
  | 'too_many_pixels'
  | 'unreadable'
  | 'rate_ip'
  | 'rate_wall'
  | 'closed'
  | 'malformed'
  | 'unavailable';

const EN: UploadWords = {
  heading: 'Post to the wall',
  intro: 'Share a photo or a few words with everyone in the room.',
  photo: 'Photo',
  photoHint: 'JPEG, PNG, WebP or an iPhone photo (HEIC), up to {mb} MB.',
  choosePhoto: 'Take or choose a photo',
  changePhoto: 'Change photo',
  text: 'Your message',
  textHint: 'Up to {n} characters. A photo, a message or both.',
  name: 'Your name',
  nameHint: 'Shown with your post.',
  terms: 'Terms',
  submit: 'Post to the wall',
  sending: 'Sending…',
  checking: 'Checking your device…',
  doneTitle: 'Thank you!',
  doneQueued: 'Your post is with the moderators and appears on the wall once approved.',
  donePublished: 'Your post is on the wall.',
  deleteLinkTitle: 'Your private delete link',
  deleteLinkHelp:
    'Keep this link: it is the only way to delete your post later, and no one else has it. Anyone you give it to can delete the post.',
  copy: 'Copy link',
  copied: 'Copied',
  another: 'Post something else',
  closedTitle: 'Posting is closed',
  closedText: 'This wall is not taking posts right now.',
  deleteTitle: 'Delete your post?',
  deleteText:
    'Your post, its photo and your name are removed from the wall and from our storage. This cannot be undone.',
  deleteConfirm: 'Delete my post',
  deletedTitle: 'Your post is deleted',
  deletedText: 'It is gone from the wall and from our storage.',
  goneTitle: 'Nothing to delete',
  goneText: 'This link belongs to no post: it was deleted already, or the link is incomplete.',
  needsScript: 'This page needs JavaScript to post (it proves you are a person without a puzzle).',
  poweredBy: 'Powered by Wallery',
  errors: {
    empty: 'Add a photo or a message.',
    name: 'Tell us your name (up to {n} characters).',
    consent: 'Please tick the box to agree before posting.',
    challenge: 'Your device could not be checked. Reload the page and try again.',
    replay: 'This form was sent already. Reload the page to post again.',
    too_large: 'This photo is too large: up to {mb} MB, please.',
    not_a_picture: 'This file is not a photo we can take: use JPEG, PNG, WebP or HEIC.',
    too_many_pixels: 'This picture has too many pixels. Please send a smaller one.',
    unreadable: 'This photo could not be read. It may be damaged: try another one.',
    rate_ip: 'You have posted a lot in a short time. Please wait a little and try again.',
    rate_wall: 'Many people are posting right now. Please try again in a minute.',
    closed: 'This wall is not taking posts right now.',
    malformed: 'The form did not arrive complete. Please try again.',
    unavailable: 'Something on our side is not ready. Please try again in a minute.',
  },
};

const DE: UploadWords = {
  heading: 'Auf die Wall posten',
  intro: 'Teile ein Foto oder ein paar Worte mit allen im Raum.',
  photo: 'Foto',
  photoHint: 'JPEG, PNG, WebP oder ein iPhone-Foto (HEIC), bis {mb} MB.',
  choosePhoto: 'Foto aufnehmen oder wählen',
  changePhoto: 'Anderes Foto',
  text: 'Deine Nachricht',
  textHint: 'Bis zu {n} Zeichen. Ein Foto, eine Nachricht oder beides.',
  name: 'Dein Name',
  nameHint: 'Wird mit deinem Beitrag gezeigt.',
  terms: 'Bedingungen',
  submit: 'Auf die Wall posten',
  sending: 'Wird gesendet…',
  checking: 'Dein Gerät wird geprüft…',
  doneTitle: 'Danke!',
  doneQueued: 'Dein Beitrag liegt bei der Moderation und erscheint nach der Freigabe.',
  donePublished: 'Dein Beitrag ist auf der Wall.',
  deleteLinkTitle: 'Dein privater Lösch-Link',
  deleteLinkHelp:
    'Bewahre diesen Link auf: Nur mit ihm kannst du deinen Beitrag später löschen, und niemand sonst hat ihn. Wer ihn hat, kann den Beitrag löschen.',
  copy: 'Link kopieren',
  copied: 'Kopiert',
  another: 'Noch etwas posten',
  closedTitle: 'Posten ist geschlossen',
  closedText: 'Diese Wall nimmt gerade keine Beiträge an.',
  deleteTitle: 'Beitrag löschen?',
  deleteText:
    'Dein Beitrag, sein Foto und dein Name werden von der Wall und aus dem Speicher entfernt. Das ist endgültig.',
  deleteConfirm: 'Beitrag löschen',
  deletedTitle: 'Dein Beitrag ist gelöscht',
  deletedText: 'Er ist von der Wall und aus dem Speicher entfernt.',
  goneTitle: 'Nichts zu löschen',
  goneText: 'Zu diesem Link gibt es keinen Beitrag: Er wurde schon gelöscht, oder der Link ist unvollständig.',
  needsScript: 'Zum Posten braucht diese Seite JavaScript (es zeigt ohne Rätsel, dass du ein Mensch bist).',
  poweredBy: 'Mit Wallery',
  errors: {
    empty: 'Füge ein Foto oder eine Nachricht hinzu.',
    name: 'Gib deinen Namen an (bis zu {n} Zeichen).',
    consent: 'Bitte setze vor dem Posten das Häkchen zur Zustimmung.',
    challenge: 'Dein Gerät konnte nicht geprüft werden. Lade die Seite neu und versuche es noch einmal.',
    replay: 'Dieses Formular wurde schon gesendet. Lade die Seite neu, um noch einmal zu posten.',
    too_large: 'Dieses Foto ist zu groß: höchstens {mb} MB, bitte.',
    not_a_picture: 'Diese Datei ist kein Foto, das wir annehmen: bitte JPEG, PNG, WebP oder HEIC.',
    too_many_pixels: 'Dieses Bild hat zu viele Pixel. Bitte sende ein kleineres.',
    unreadable: 'Dieses Foto ließ sich nicht lesen. Es ist vielleicht beschädigt: versuche ein anderes.',
    rate_ip: 'Du hast in kurzer Zeit viel gepostet. Bitte warte etwas und versuche es dann noch einmal.',
    rate_wall: 'Gerade posten sehr viele. Bitte versuche es in einer Minute noch einmal.',
    closed: 'Diese Wall nimmt gerade keine Beiträge an.',
    malformed: 'Das Formular kam nicht vollständig an. Bitte versuche es noch einmal.',
    unavailable: 'Bei uns ist gerade etwas nicht bereit. Bitte versuche es in einer Minute noch einmal.',
  },
};

const FR: UploadWords = {
  heading: 'Publier sur le mur',
  intro: 'Partagez une photo ou quelques mots avec toute la salle.',
  photo: 'Photo',
  photoHint: 'JPEG, PNG, WebP ou une photo d’iPhone (HEIC), jusqu’à {mb} Mo.',
  choosePhoto: 'Prendre ou choisir une photo',
  changePhoto: 'Changer de photo',
  text: 'Votre message',
  textHint: 'Jusqu’à {n} caractères. Une photo, un message ou les deux.',
  name: 'Votre nom',
  nameHint: 'Affiché avec votre publication.',
  terms: 'Conditions',
  submit: 'Publier sur le mur',
  sending: 'Envoi…',
  checking: 'Vérification de votre appareil…',
  doneTitle: 'Merci !',
  doneQueued: 'Votre publication est chez les modérateurs et apparaîtra une fois approuvée.',
  donePublished: 'Votre publication est sur le mur.',
  deleteLinkTitle: 'Votre lien privé de suppression',
  deleteLinkHelp:
    'Gardez ce lien : c’est le seul moyen de supprimer votre publication plus tard, et personne d’autre ne l’a. Quiconque l’a peut la supprimer.',
  copy: 'Copier le lien',
  copied: 'Copié',
  another: 'Publier autre chose',
  closedTitle: 'Les publications sont fermées',
  closedText: 'Ce mur ne prend pas de publications pour le moment.',
  deleteTitle: 'Supprimer votre publication ?',
  deleteText: 'Votre publication, sa photo et votre nom sont retirés du mur et de notre stockage. C’est définitif.',
  deleteConfirm: 'Supprimer ma publication',
  deletedTitle: 'Votre publication est supprimée',
  deletedText: 'Elle a disparu du mur et de notre stockage.',
  goneTitle: 'Rien à supprimer',
  goneText: 'Ce lien ne correspond à aucune publication : elle a déjà été supprimée, ou le lien est incomplet.',
  needsScript: 'Cette page a besoin de JavaScript pour publier (il prouve que vous êtes une personne, sans énigme).',
  poweredBy: 'Propulsé par Wallery',
  errors: {
    empty: 'Ajoutez une photo ou un message.',
    name: 'Indiquez votre nom (jusqu’à {n} caractères).',
    consent: 'Cochez la case pour donner votre accord avant de publier.',
    challenge: 'Votre appareil n’a pas pu être vérifié. Rechargez la page et réessayez.',
    replay: 'Ce formulaire a déjà été envoyé. Rechargez la page pour publier à nouveau.',
    too_large: 'Cette photo est trop lourde : {mb} Mo au plus, s’il vous plaît.',
    not_a_picture: 'Ce fichier n’est pas une photo que nous acceptons : JPEG, PNG, WebP ou HEIC.',
    too_many_pixels: 'Cette image a trop de pixels. Envoyez-en une plus petite.',
    unreadable: 'Cette photo n’a pas pu être lue. Elle est peut-être abîmée : essayez-en une autre.',
    rate_ip: 'Vous avez beaucoup publié en peu de temps. Patientez un peu et réessayez.',
    rate_wall: 'Beaucoup de monde publie en ce moment. Réessayez dans une minute.',
    closed: 'Ce mur ne prend pas de publications pour le moment.',
    malformed: 'Le formulaire n’est pas arrivé complet. Réessayez.',
    unavailable: 'Quelque chose n’est pas prêt de notre côté. Réessayez dans une minute.',
  },
};

export const UPLOAD_WORDS: Readonly<Record<UploadLanguage, UploadWords>> = { en: EN, de: DE, fr: FR };

/** The words of `language` (English when it is not one of the page's). */
export const uploadWords = (language: string): UploadWords =>
  UPLOAD_WORDS[(UPLOAD_LANGUAGES as readonly string[]).includes(language) ? (language as UploadLanguage) : 'en'];

/** A message with its `{mb}` / `{n}` filled in. */
export const fillWords = (text: string, values: { mb?: number; n?: number }): string =>
  text.replace('{mb}', String(values.mb ?? '')).replace('{n}', String(values.n ?? ''));

/** The HTTP status each refusal is answered with. */
export const UPLOAD_PROBLEM_STATUS: Readonly<Record<UploadProblem, number>> = {
  empty: 400,
  name: 400,
  consent: 400,
  challenge: 403,
  replay: 409,
  too_large: 413,
  not_a_picture: 415,
  too_many_pixels: 422,
  unreadable: 422,
  rate_ip: 429,
  rate_wall: 429,
  closed: 404,
  malformed: 400,
  unavailable: 503,
};
