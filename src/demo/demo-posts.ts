// What the three demo walls show: each post's author, text and pictures, in
// the order of the wall (newest first). demo-data.ts turns them into the
// data file: ids, dates relative to the first start, feeds by network.
// Pictures are files of demo/media (scripts/demo-photos.ts); a `scene` is a
// studio shot of demo-scenes.ts, whose products are tagged where they stand.

export interface PostSpec {
  author: string;
  text: string;
  /** pictures, in order; more than one makes a carousel */
  photos?: string[];
  /** alternative texts of the pictures, in the same order */
  alts?: string[];
  /** a studio shot whose products are tagged (first picture), with "Shop the look" */
  scene?: string;
  /** a short clip of demo/media, shown with its poster (`photos[0]`) */
  clip?: string;
  pin?: boolean;
  highlight?: boolean;
  location?: string;
  tags?: string;
}

/** Tonewood Music Co., a music shop: its own posts and its customers', shoppable. */
export const BRAND_POSTS: PostSpec[] = [
  {
    author: 'tonewood',
    scene: 'brand-first-guitars.jpg',
    text: 'First guitar, or the one after it? The <b>Parlour</b> classical and the <b>Ember</b> single-cut, side by side in the shop this week. Tap a guitar to see it. #tonewood #newarrivals',
    alts: ['A classical guitar and a black single-cut electric guitar on a mustard backdrop'],
    pin: true,
    tags: 'newarrivals,guitars',
  },
  {
    author: 'lena',
    text: 'Three months on the Lowline and my left hand finally stopped complaining. Short scale, big sound. Thanks to the Tonewood crew for the setup',
    highlight: true,
  },
  {
    author: 'tonewood-yt',
    photos: ['brand-guitar-wall.jpg'],
    clip: 'clip-guitar-wall.mp4',
    text: 'Session #14: three guitars, one riff. Which one do you hear first? Full video on our channel.',
    alts: ['Three guitars standing in a row against a pale grey wall'],
  },
  {
    author: 'tonewood',
    scene: 'brand-brass-and-bass.jpg',
    text: 'Rhythm section starter pack: the Lowline 4-string and a lacquered Bb trumpet. Both in stock, both ready to play today.',
    alts: ['A natural-finish bass guitar and a brass trumpet on a cream backdrop'],
  },
  {
    author: 'marco',
    text: 'Quick one: does anyone know if the Saturday string-change clinic is still on? Bringing my daughter’s first guitar.',
  },
  {
    author: 'tonewood',
    text: 'It is, Marco! Every Saturday, 10:00–12:00, free. Bring the guitar, we bring the strings at cost and a very patient tech. Coffee included.',
  },
  {
    author: 'aiko',
    scene: 'brand-cello.jpg',
    text: 'Rented this student cello for my first term at the conservatory prep course. Warm, even, forgiving. The bow they set me up with is lovely too.',
    alts: ['A cello standing upright on a sage-green backdrop'],
    highlight: true,
  },
  {
    author: 'tonewood',
    photos: ['brand-varnish-day.jpg'],
    text: 'Varnish day in the workshop. Every repair that leaves the bench gets the same care as a new build. #luthier #workshop',
    alts: ['Brushes of many colours in jars on a workbench'],
    location: 'Tonewood workshop',
  },
  {
    author: 'sam',
    text: 'Honest review of the Ember after six weeks of gigging:<br>– holds tune through two-hour sets<br>– neck is slimmer than I expected (good thing)<br>– the bridge pickup bites, the neck pickup purrs<br>Would buy again. Did, actually — a second one for my bandmate.',
  },
  {
    author: 'tonewood',
    scene: 'brand-percussion.jpg',
    text: 'New in percussion: a 16" crash that opens up fast and a 14" floor tom in cherry. Drummers, come and hit things (politely).',
    alts: ['A crash cymbal and a red floor tom on a terracotta backdrop'],
  },
  {
    author: 'lena',
    photos: ['brand-listening-corner.jpg'],
    text: 'Found the listening corner upstairs. Stayed two hours. No regrets.',
    alts: ['A djembe on a beanbag in a wood-panelled room'],
  },
  {
    author: 'tonewood',
    scene: 'brand-roadhouse.jpg',
    text: 'The Roadhouse in sunburst: chambered body, wide tone range, and the best-sounding “out of the box” guitar we have had in a while.',
    alts: ['A sunburst electric guitar on a pale blue backdrop'],
  },
  {
    author: 'marco',
    photos: ['product-501.jpg', 'product-505.jpg', 'product-506.jpg'],
    text: 'Family band is officially a thing: guitar for her, cello for him, trumpet for me (sorry, neighbours). Swipe for the line-up.',
    alts: ['A classical guitar', 'A cello', 'A trumpet'],
  },
  {
    author: 'tonewood',
    text: 'Holiday hours: open every day until the 23rd, 10:00–19:00. Gift cards at the counter and on the phone.',
  },
  {
    author: 'aiko',
    text: 'Small thing, but: the shop tuned my cello before I walked out and wrote the string brand on the case tag. That kind of care keeps me coming back.',
  },
  {
    author: 'tonewood',
    scene: 'brand-trumpet.jpg',
    text: 'Bb trumpet, lacquered brass. Light valves, a bright but round tone, and a case that survives school buses.',
    alts: ['A brass trumpet on a dark blue backdrop'],
  },
  {
    author: 'sam',
    photos: ['product-502.jpg', 'product-504.jpg'],
    text: 'Ember or Roadhouse for a small jazz trio? Asking for a friend (me).',
    alts: ['A black single-cut electric guitar', 'A sunburst electric guitar'],
  },
  {
    author: 'tonewood-yt',
    text: 'New on the channel: “Setting up your first guitar at home” — action, intonation and when to leave it to a tech. 12 minutes, no jargon.',
  },
  {
    author: 'lena',
    photos: ['product-503.jpg'],
    text: 'Look who came back from its first setup. Action is lower, the buzz on the G string is gone.',
    alts: ['A natural-finish bass guitar'],
  },
  {
    author: 'tonewood',
    scene: 'brand-parlour.jpg',
    text: 'The Parlour is small-bodied, light and made for the sofa as much as the stage. Nylon strings, easy on new fingers.',
    alts: ['A classical guitar on a warm beige backdrop'],
  },
  {
    author: 'marco',
    text: 'Ten lessons in and I can play one whole song start to finish. It is not a good performance. It is MY performance.',
  },
  {
    author: 'tonewood',
    photos: ['product-507.jpg', 'product-508.jpg'],
    text: 'Percussion corner refresh: crash cymbals and floor toms, all on display, all playable. Sticks provided.',
    alts: ['A crash cymbal', 'A red floor tom'],
  },
  {
    author: 'aiko',
    text: 'Recital on Sunday. Practised the Bach prelude 40 times today. The cello sounds great; I am the variable.',
  },
  {
    author: 'tonewood',
    text: 'We buy, sell and trade used instruments. Bring it in for a free valuation — we play every one before we price it.',
  },
  {
    author: 'sam',
    text: 'PSA: the shop’s trade-in estimate was fair and fast. Got store credit for my old amp toward the Ember.',
  },
  {
    author: 'tonewood',
    text: 'Welcome to the Tonewood wall! Share your instrument with #tonewood and we may feature it here.',
  },
];

/** Starlight Lake Festival: a weekend of stargazing, talks and night boats; the event screen. */
export const EVENT_POSTS: PostSpec[] = [
  {
    author: 'starlight',
    photos: ['event-milky-way.jpg'],
    text: 'Welcome to Starlight Lake 2026 Tonight: dark-sky viewing on the east shore from 22:00, telescopes provided. Post with #starlightlake to appear on this screen.',
    alts: ['The Milky Way over a still sea at dusk'],
    pin: true,
  },
  {
    author: 'noor',
    photos: ['event-launch.jpg'],
    clip: 'clip-launch.mp4',
    text: 'The launch-night screening on the big dome. The whole tent counted down from ten. Goosebumps.',
    alts: ['A rocket on its launch pad at night, lit by floodlights'],
    highlight: true,
  },
  {
    author: 'priya',
    photos: ['event-lake-1am.jpg', 'event-blue-hour.jpg'],
    text: '1 a.m. on the jetty vs. blue hour on the same spot. The lake is doing all the work.',
    alts: ['A lake in the pink glow of a summer night', 'The same lake in deep blue light'],
  },
  {
    author: 'jonas',
    text: 'Seeing conditions right now: transparency 4/5, seeing 3/5, no moon until 02:40. Get to the east shore.',
  },
  {
    author: 'starlight',
    photos: ['event-deep-field.jpg'],
    text: 'Next in the planetarium (21:30): “Ten thousand galaxies in one picture” — the story of the Hubble deep fields, with Dr. Amara Obi.',
    alts: ['Thousands of distant galaxies on a black sky'],
  },
  {
    author: 'tomas',
    text: 'Best festival food queue conversation: two strangers arguing about whether Pluto should be a planet. Both very polite. Both very wrong apparently.',
  },
  {
    author: 'skynotes',
    photos: ['event-pioneers-hall.jpg'],
    text: 'From our festival notes: the “Pioneers” exhibition hall is worth a slow visit. The portrait wall of astronauts — here Eileen Collins, the first woman to pilot the Space Shuttle — comes with the mission patches and logbooks.',
    alts: ['Portrait of astronaut Eileen Collins in an orange flight suit'],
  },
  {
    author: 'noor',
    photos: ['event-boats.jpg'],
    text: 'Night boats leave every 30 minutes from the south pier. Ours had a guide pointing out constellations with a green laser. 10/10.',
    alts: ['Rowing boats pulled up on a shore at sunset'],
    location: 'South pier, Starlight Lake',
  },
  {
    author: 'jonas',
    photos: ['event-workshop.jpg'],
    text: 'Astrophotography workshop, part one: “the tripod is not optional”. Part two after dark.',
    alts: ['A photographer with a camera on a tripod'],
  },
  {
    author: 'starlight',
    text: 'Weather update: a storm cell is passing north of the lake. Outdoor viewing pauses 20:00–21:00; talks continue in the dome.',
    highlight: true,
  },
  {
    author: 'priya',
    photos: ['event-storm.jpg'],
    text: 'And there it goes. Dramatic sky, zero stars, excellent hot chocolate.',
    alts: ['Dark storm clouds over a plain'],
  },
  {
    author: 'tomas',
    photos: ['event-kites.jpg'],
    text: 'Afternoon kite workshop for the kids (and me).',
    alts: ['A colourful kite high in a blue sky'],
  },
  {
    author: 'skynotes',
    text: 'Day two round-up on the blog: the dark-sky talk, the new observatory plans, and the best spots around the lake if you are staying until Sunday.',
  },
  {
    author: 'noor',
    photos: ['event-evening-glow.jpg'],
    text: 'Golden hour → pink hour → star hour. Worth the drive.',
    alts: ['A calm lake under a pink and violet evening sky'],
  },
  {
    author: 'starlight',
    text: 'Lost and found at the info tent: one red headlamp, two thermoses, a very nice pair of binoculars. Come and claim them!',
  },
  {
    author: 'jonas',
    photos: ['event-sunset-ridge.jpg'],
    text: 'Hiked up the ridge for the sunset before the night session. You can see the whole festival from up here.',
    alts: ['The sun setting over hills seen from a ridge'],
  },
  {
    author: 'priya',
    text: 'First time seeing Saturn’s rings through a telescope. I actually gasped. The volunteer said everyone does.',
    highlight: true,
  },
  {
    author: 'tomas',
    text: 'The silent disco under the stars is the best idea anyone has ever had.',
  },
  {
    author: 'starlight',
    text: 'Tonight’s programme: 19:00 family planetarium · 20:30 talk “Living with dark skies” · 22:00 east-shore viewing · 23:30 night boats.',
  },
  {
    author: 'noor',
    text: 'Tip: bring a red light, not a white one. Your eyes (and everyone near you) will thank you.',
  },
  {
    author: 'skynotes',
    text: 'We asked twenty visitors what brought them here. The most common answer: “I have never really seen the Milky Way.”',
  },
  {
    author: 'jonas',
    text: 'Meteor count from 23:00 to 00:00: 17. Two of them bright enough to make the whole shore cheer.',
  },
  {
    author: 'priya',
    text: 'Volunteers at the telescopes: you are the best part of this festival. Patient with every kid, every question, every “is that a plane?”.',
  },
  {
    author: 'tomas',
    text: 'Camping field is full of headlamps set to red and people whispering. Most polite campsite I have ever been on.',
  },
  {
    author: 'skynotes',
    text: 'Festival guide, part one: what to bring to a dark-sky night — warm layers, a red light, a folding chair, and no expectations. The sky decides.',
  },
  {
    author: 'starlight',
    text: 'Gates open at 15:00. Parking at the north field, shuttle every 15 minutes. See you by the lake.',
  },
];

/** Open Trails, a walking and nature community: many networks, many voices. */
export const COMMUNITY_POSTS: PostSpec[] = [
  {
    author: 'opentrails',
    photos: ['community-aitzgorri.jpg'],
    text: 'This month’s challenge: <b>#autumnwalks</b>. Share one walk, one photo, one thing you noticed. We pick a favourite every Friday.',
    alts: ['A mountain ridge above autumn forest and a green meadow'],
    pin: true,
  },
  {
    author: 'kofi',
    photos: ['community-window-dogs.jpg'],
    text: 'The walking committee has assembled and is awaiting departure.',
    alts: ['Two spaniels looking out of a wooden window'],
    highlight: true,
  },
  {
    author: 'eitan',
    photos: ['community-nuthatch.jpg'],
    text: 'A nuthatch going down the trunk head first, as they do. The only bird here that walks down trees.',
    alts: ['A nuthatch on the side of a tree trunk'],
  },
  {
    author: 'trailtv',
    photos: ['community-waterfall.jpg'],
    clip: 'clip-waterfall.mp4',
    text: 'Gorge walk, episode 6: the hidden waterfall. Three minutes from the car park, nobody there.',
    alts: ['A small waterfall in a mossy forest gorge'],
  },
  {
    author: 'ines',
    text: 'Does anyone know a step-free loop near the river? Walking with my grandmother on Sunday.',
  },
  {
    author: 'opentrails',
    text: '@ines the Mill Lane loop is flat, paved and 2.5 km, with benches every few hundred metres. Toilets at the café at the start.',
  },
  {
    author: 'mira',
    photos: ['community-chelsea.jpg'],
    text: 'My walking partner declined the walk. Again.',
    alts: ['A tabby cat looking at the camera'],
  },
  {
    author: 'hanna',
    photos: ['community-marigold.jpg', 'community-sunflower.jpg', 'community-ladybird.jpg'],
    text: 'Community garden this morning: marigolds, the last sunflower and one very busy ladybird.',
    alts: ['A red and orange marigold', 'A yellow flower close up', 'A ladybird on a green stem'],
  },
  {
    author: 'greenbelt',
    photos: ['community-forest-path.jpg'],
    text: 'Why green corridors matter: the old railway path now links three woods, and the bat surveys show it. Notes from this season’s counts.',
    alts: ['A path through a dark pine forest'],
  },
  {
    author: 'kofi',
    photos: ['community-picos.jpg'],
    text: 'Six hours, one col, zero regrets.',
    alts: ['A trail across a high meadow below rocky peaks'],
    location: 'Picos de Europa',
  },
  {
    author: 'eitan',
    text: 'Heard the first redwings of the autumn tonight, passing over in the dark. If you hear a thin “tseep” from the sky after sunset, that is them.',
  },
  {
    author: 'mira',
    photos: ['community-espresso.jpg'],
    text: 'Post-walk ritual.',
    alts: ['An espresso in a red cup on a wooden table'],
  },
  {
    author: 'ines',
    photos: ['community-dragonfly.jpg'],
    text: 'Dragonfly on the hazel by the pond. It stayed for a full minute, long enough for me to stop fumbling with the camera.',
    alts: ['Hazel leaves against a blue sky'],
  },
  {
    author: 'opentrails',
    text: 'Volunteer day on Saturday: clearing the bridleway by the quarry. Gloves and tools provided, bring water. 9:30 at the north gate.',
    highlight: true,
  },
  {
    author: 'hanna',
    photos: ['community-fig.jpg'],
    text: 'First fig from the allotment tree. It was worth the four-year wait.',
    alts: ['A halved fig on a red bowl'],
  },
  {
    author: 'greenbelt',
    text: 'Reminder: ground-nesting birds are still about on the heath. Dogs on leads past the gate, please.',
  },
  {
    author: 'kofi',
    photos: ['community-bridge.jpg'],
    text: 'Under the estuary bridge at low tide. Sand for miles.',
    alts: ['Steel cables of a bridge over a wide sandy estuary'],
  },
  {
    author: 'eitan',
    photos: ['community-maple-leaf.jpg', 'community-dandelions.jpg'],
    text: 'Autumn and spring on the same walk: a fallen maple leaf and the last dandelion clocks of the year.',
    alts: ['A maple leaf on the ground among autumn leaves', 'Dandelion clocks in evening light'],
  },
  {
    author: 'trailtv',
    text: 'Next week on Trail TV: a full day on the coast path with the Open Trails crew. Any questions for them? Leave them below.',
  },
  {
    author: 'mira',
    text: 'Walked 10,000 steps today, 6,000 of them trying to find where I parked.',
  },
  {
    author: 'ines',
    photos: ['community-jetty.jpg'],
    text: 'Fog on the lake this morning. Everything disappeared except the jetty.',
    alts: ['A wooden jetty fading into grey fog'],
  },
  {
    author: 'hanna',
    photos: ['community-raindrops.jpg'],
    text: 'Rain stopped, garden sparkled.',
    alts: ['Raindrops on green leaves'],
  },
  {
    author: 'opentrails',
    photos: ['community-cups.jpg'],
    text: 'Last week’s picnic: 38 walkers, zero single-use cups. Thank you all for bringing your own!',
    alts: ['Rows of colourful cups seen from above'],
  },
  {
    author: 'greenbelt',
    photos: ['community-ripples.jpg'],
    text: 'Water quality at the reservoir is back to “good” after the summer. Our monthly samples, mapped.',
    alts: ['Ripples on dark blue water'],
  },
  {
    author: 'kofi',
    photos: ['community-dune.jpg'],
    text: 'Dunes, wind, and one very happy dog just out of frame.',
    alts: ['Dune grass against the sea'],
  },
  {
    author: 'eitan',
    text: 'Short one today. Sat on the bench by the old oak for twenty minutes and counted eleven species. Recommended.',
  },
  {
    author: 'opentrails',
    text: 'New here? Open Trails is a free, friendly walking group. Walks every weekend for every pace — see the pinned post and say hello.',
  },
];
