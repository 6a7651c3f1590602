// The submission page's one script (served at …/submit/page.js, allowed by
// the page's `script-src 'self'`): solves the page's proof-of-work challenge
// (ALTCHA's v1 scheme: the number n with SHA-256(salt + n) = challenge) while
// the visitor fills the form — with a small SHA-256 of its own, because
// crypto.subtle exists only on https and an event's server is often plain
// http on the venue's network — shows the chosen photo, sends the form with
// a progress bar and shows the private deletion link. No framework, about
// 5 KB: a slow phone connection loads it at once.
export const SUBMIT_SCRIPT = `'use strict';
(function () {
  var K = new Uint32Array([0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,0xd807aa98,0x12835b01,0x243185be,0x550c7dc3,0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,0x983e5152,0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,0x06ca6351,0x14292967,0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,0x81c2c92e,0x92722c85,0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,0x19a4c116,0x1e376c08,0x2748774c,0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2]);
  var W = new Uint32Array(64);
  function sha256hex(str) {
    var bytes = new TextEncoder().encode(str);
    var l = bytes.length, n = ((l + 9 + 63) >> 6) << 6, m = new Uint8Array(n);
    m.set(bytes); m[l] = 0x80;
    var bits = l * 8; m[n - 4] = bits >>> 24; m[n - 3] = bits >>> 16; m[n - 2] = bits >>> 8; m[n - 1] = bits;
    var h0 = 0x6a09e667, h1 = 0xbb67ae85, h2 = 0x3c6ef372, h3 = 0xa54ff53a, h4 = 0x510e527f, h5 = 0x9b05688c, h6 = 0x1f83d9ab, h7 = 0x5be0cd19;
    for (var o = 0; o < n; o += 64) {
      for (var i = 0; i < 16; i++) W[i] = (m[o + i * 4] << 24) | (m[o + i * 4 + 1] << 16) | (m[o + i * 4 + 2] << 8) | m[o + i * 4 + 3];
      for (i = 16; i < 64; i++) {
        var a = W[i - 15], b = W[i - 2];
        var s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
        var s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
        W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
      }
      var A = h0, B = h1, C = h2, D = h3, E = h4, F = h5, G = h6, H = h7;
      for (i = 0; i < 64; i++) {
        var S1 = ((E >>> 6) | (E << 26)) ^ ((E >>> 11) | (E << 21)) ^ ((E >>> 25) | (E << 7));
        var t1 = (H + S1 + ((E & F) ^ (~E & G)) + K[i] + W[i]) | 0;
        var S0 = ((A >>> 2) | (A << 30)) ^ ((A >>> 13) | (A << 19)) ^ ((A >>> 22) | (A << 10));
        var t2 = (S0 + ((A & B) ^ (A & C) ^ (B & C))) | 0;
        H = G; G = F; F = E; E = (D + t1) | 0; D = C; C = B; B = A; A = (t1 + t2) | 0;
      }
      h0 = (h0 + A) | 0; h1 = (h1 + B) | 0; h2 = (h2 + C) | 0; h3 = (h3 + D) | 0;
      h4 = (h4 + E) | 0; h5 = (h5 + F) | 0; h6 = (h6 + G) | 0; h7 = (h7 + H) | 0;
    }
    return [h0, h1, h2, h3, h4, h5, h6, h7].map(function (x) { return ('0000000' + (x >>> 0).toString(16)).slice(-8); }).join('');
  }

  var form = document.getElementById('upload');
  if (!form) return;
  var $ = function (id) { return document.getElementById(id); };
  var words = JSON.parse($('words').textContent);
  var base = form.getAttribute('action');
  var solution = null, solving = null;

  function solve() {
    solution = null;
    solving = fetch(base + '/challenge', { cache: 'no-store' })
      .then(function (r) { if (!r.ok) throw new Error('challenge'); return r.json(); })
      .then(function (c) {
        return new Promise(function (resolve) {
          var nr = 0;
          (function chunk() {
            var end = Math.min(nr + 4000, c.maxnumber);
            for (; nr <= end; nr++) {
              if (sha256hex(c.salt + nr) === c.challenge) {
                solution = btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: nr, salt: c.salt, signature: c.signature }));
                return resolve(solution);
              }
            }
            if (nr > c.maxnumber) return resolve(null);
            setTimeout(chunk, 0);
          })();
        });
      })
      .catch(function () { return null; });
    return solving;
  }
  solve();

  var photo = $('photo'), preview = $('preview'), pick = $('pick-label'), alertBox = $('problem');
  var progress = $('progress'), bar = $('bar'), button = $('send'), status = $('status');
  photo.addEventListener('change', function () {
    var f = photo.files && photo.files[0];
    if (preview.dataset.url) URL.revokeObjectURL(preview.dataset.url);
    if (!f) { preview.hidden = true; pick.textContent = words.choosePhoto; return; }
    var url = URL.createObjectURL(f);
    preview.dataset.url = url;
    preview.querySelector('img').src = url;
    preview.hidden = false;
    pick.textContent = words.changePhoto;
    if (f.size > Number(form.dataset.maxBytes)) show(words.tooLarge);
    else show('');
  });

  function show(message) {
    alertBox.textContent = message;
    alertBox.hidden = message === '';
    if (message !== '') alertBox.focus();
  }
  function busy(on, text) {
    button.disabled = on;
    status.textContent = text || '';
    progress.hidden = !on;
    if (!on) bar.style.width = '0';
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var f = photo.files && photo.files[0];
    if (!f && $('text').value.trim() === '') return show(words.empty);
    if (f && f.size > Number(form.dataset.maxBytes)) return show(words.tooLarge);
    if ($('name').value.trim() === '') return show(words.name);
    if (!$('consent').checked) return show(words.consent);
    show('');
    busy(true, words.checking);
    (solution ? Promise.resolve(solution) : solving).then(function (s) {
      if (!s) { busy(false); solve(); return show(words.challenge); }
      var data = new FormData();
      data.append('altcha', s);
      data.append('name', $('name').value);
      data.append('text', $('text').value);
      data.append('consent', $('consent').checked ? 'yes' : '');
      if (f) data.append('photo', f, f.name);
      var xhr = new XMLHttpRequest();
      xhr.open('POST', base);
      xhr.setRequestHeader('Accept', 'application/json');
      status.textContent = words.sending;
      xhr.upload.onprogress = function (e) { if (e.lengthComputable) bar.style.width = Math.round((e.loaded / e.total) * 100) + '%'; };
      xhr.onload = function () {
        var body = {};
        try { body = JSON.parse(xhr.responseText); } catch (e) { body = {}; }
        if (xhr.status === 201) return done(body);
        busy(false);
        solve();
        show(body.responseMessage || words.unavailable);
      };
      xhr.onerror = function () { busy(false); solve(); show(words.unavailable); };
      xhr.send(data);
    });
  });

  function done(body) {
    form.hidden = true;
    $('done-text').textContent = body.state === 'approved' ? words.donePublished : words.doneQueued;
    $('delete-link').value = body.deleteUrl;
    $('done').hidden = false;
    $('done-title').focus();
  }
  $('copy').addEventListener('click', function () {
    var link = $('delete-link');
    link.select();
    var ok = function () { $('copy').textContent = words.copied; };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link.value).then(ok, function () { document.execCommand('copy'); ok(); });
    else { document.execCommand('copy'); ok(); }
  });
  $('again').addEventListener('click', function () { window.location.reload(); });
})();
`;
