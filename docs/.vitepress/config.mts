// The documentation site (VitePress): `npm run docs:dev` serves it while you
// write, `npm run docs:build` builds it into dist/site and checks every link
// and anchor in it (scripts/docs-check-links.ts). The site is built for the
// base /guide/, where a running instance serves it (src/http/web/guide.ts).
import { defineConfig } from 'vitepress';

export const SITE_BASE = '/guide/';

const getStarted = [
  { text: 'Install', link: '/get-started/install' },
  { text: 'Your first wall', link: '/get-started/first-wall' },
  { text: 'Your first feed', link: '/get-started/first-feed' },
  { text: 'Embed a wall', link: '/get-started/embed-a-wall' },
  { text: 'Console tour', link: '/get-started/console-tour' },
];

const guides = [
  { text: 'Feeds and connectors', link: '/guides/feeds-and-connectors' },
  { text: 'Connections', link: '/guides/connections' },
  { text: 'Connecting networks with OAuth', link: '/guides/connections-oauth' },
  { text: 'Moderation and rules', link: '/guides/moderation-and-rules' },
  { text: 'Embed and hosted page', link: '/guides/embed-and-hosted-page' },
  { text: 'Event screen', link: '/guides/event-screen' },
  { text: 'Attendee uploads', link: '/guides/attendee-uploads' },
  { text: 'Branding a wall', link: '/guides/branding' },
  { text: 'Gallery: the demo walls', link: '/guides/gallery' },
  { text: 'Analytics', link: '/guides/analytics' },
  { text: 'Webhooks and change feed', link: '/guides/webhooks-and-change-feed' },
  { text: 'Products and shopping', link: '/guides/products-and-shopping' },
  { text: 'Rights management', link: '/guides/rights' },
  { text: 'Scale out', link: '/guides/scale-out' },
  { text: 'Operators: roles, tokens, audit', link: '/guides/operators' },
];

// one page a network: what it needs, its feeds, its limits, its terms
const networks = [
  { text: 'Instagram', link: '/networks/instagram' },
  { text: 'Facebook', link: '/networks/facebook' },
  { text: 'Threads', link: '/networks/threads' },
  { text: 'YouTube', link: '/networks/youtube' },
  { text: 'TikTok', link: '/networks/tiktok' },
  { text: 'Mastodon', link: '/networks/mastodon' },
  { text: 'Bluesky', link: '/networks/bluesky' },
  { text: 'Pixelfed', link: '/networks/pixelfed' },
  { text: 'Misskey and Sharkey', link: '/networks/misskey' },
  { text: 'PeerTube', link: '/networks/peertube' },
  { text: 'X', link: '/networks/x' },
  { text: 'Reddit', link: '/networks/reddit' },
  { text: 'Tumblr', link: '/networks/tumblr' },
  { text: 'Flickr', link: '/networks/flickr' },
  { text: 'Asking for rights', link: '/networks/asking-for-rights' },
];

const reference = [
  { text: 'Public API v2', link: '/reference/api-v2' },
  { text: 'Management API', link: '/reference/management-api' },
  { text: 'Embed API', link: '/reference/embed-api' },
  { text: 'Configuration', link: '/reference/configuration' },
  { text: 'CLI', link: '/reference/cli' },
];

const operations = [
  { text: 'Running', link: '/operations/running' },
  { text: 'Metrics and tracing', link: '/operations/metrics' },
  { text: 'Media', link: '/operations/media' },
  { text: 'CDN and Varnish', link: '/operations/cdn' },
  { text: 'Live streams (SSE)', link: '/operations/sse' },
  { text: 'Capacity model', link: '/operations/capacity' },
  { text: 'Backups', link: '/operations/backups' },
  { text: 'Upgrades', link: '/operations/upgrades' },
];

const about = [
  { text: 'Security', link: '/security' },
  { text: 'Performance', link: '/performance' },
  { text: 'Architecture', link: '/architecture' },
  { text: 'Design decisions', link: '/design-decisions' },
];

export default defineConfig({
  title: 'Wallery',
  description: 'Self-hosted social walls behind the Wall and Gallery Content API v2',
  lang: 'en',
  base: SITE_BASE,
  cleanUrls: true,
  outDir: '../dist/site',
  cacheDir: '../node_modules/.cache/vitepress',
  // pictures are assets, not pages
  srcExclude: ['screenshots/**'],
  // a dead link to a page fails the build; the built site's anchors are checked after it
  ignoreDeadLinks: false,
  lastUpdated: false,
  // GitHub's high-contrast code colours: the default ones fail WCAG AA contrast (test/web/guide.test.ts)
  markdown: { theme: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' } },
  themeConfig: {
    nav: [
      { text: 'Get started', link: '/get-started/install' },
      { text: 'Guides', link: '/guides/feeds-and-connectors' },
      { text: 'Reference', link: '/reference/api-v2' },
      { text: 'Operations', link: '/operations/running' },
    ],
    sidebar: [
      { text: 'Get started', items: getStarted },
      { text: 'Guides', items: guides },
      { text: 'Networks', items: networks },
      { text: 'Reference', items: reference },
      { text: 'Operations', items: operations },
      { text: 'About Wallery', items: about },
    ],
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
});
