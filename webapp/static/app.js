// Reversi Mini App: draws the game the page URL names (?g=ID, else initData's start_param),
// plays the viewer's taps and follows the game live through api/watch. It needs nothing but
// this file; Telegram's telegram-web-app.js, when it loads, adds the theme, haptics and the
// ready/expand calls. The DOM it keeps is read by tests (webapp/webapptest): #board carries
// data-size, data-version and data-ply; each .cell data-sq ("d3") and data-disc ("b", "w" or
// ""), with the classes legal (a move of the viewer) and last (the last disc placed);
// body data-state is "loading", "ready" or "refused".
//
// Every text the page shows is either the server's (names, results, errors) or one of the
// catalogue that index.html carries in #texts (webapp.PageTexts), named by its key of package
// i18n: t('app.your_move'). The page holds no text of its own.
(function () {
  'use strict';

  var $ = function (id) { return document.getElementById(id); };
  var body = document.body;
  var boardEl = $('board');
  var hash = params(location.hash.slice(1));
  var query = params(location.search.slice(1));
  var cat = catalogue();
  var lang = guessLang();
  var cur = null;      // the newest state from the server
  var shown = null;    // the board string drawn (the optimistic one while a move is sent)
  var cells = [];      // the cells of the board drawn, row by row from a1
  var pending = null;  // the square of a move being sent
  var watching = false;
  var toastTimer = 0;

  function params(s) {
    try { return new URLSearchParams(s); } catch (e) { return new URLSearchParams(''); }
  }
  function webApp() { return (window.Telegram && window.Telegram.WebApp) || null; }
  function initData() {
    var w = webApp();
    return (w && w.initData) || hash.get('tgWebAppData') || '';
  }
  function catalogue() {
    var c = null;
    try { c = JSON.parse($('texts').textContent); } catch (e) { /* checked below */ }
    if (!c || typeof c !== 'object' || !c.texts || !c.texts[c.default]) {
      console.error('reversi: the page has no texts');
      c = { default: '', pick: {}, texts: { '': {} } };
    }
    return c;
  }
  // pickLang is i18n.Pick: the language for a Telegram language_code.
  function pickLang(code) {
    code = String(code || '').trim().toLowerCase().split(/[-_]/)[0];
    return cat.pick[code] || cat.default;
  }
  function guessLang() {
    try {
      var u = JSON.parse(params(initData()).get('user') || '{}');
      if (u.language_code) { return pickLang(u.language_code); }
    } catch (e) { /* no user: the browser's language */ }
    return pickLang(navigator.language);
  }
  // t is the text key in the page's language, formatted with the arguments after key as
  // i18n.T (a plural text as i18n.Plural: its form for the count, the first argument). An
  // unknown key is itself.
  function t(key) {
    var args = Array.prototype.slice.call(arguments, 1);
    var s = (cat.texts[lang] || {})[key];
    if (s === undefined) { s = cat.texts[cat.default][key]; }
    if (s === undefined) { return key; }
    if (typeof s === 'object') { s = s[pluralForm(args[0])] || s.other; }
    var next = 0;
    return String(s).replace(/%(?:\[(\d+)\])?([sd%])/g, function (m, index, verb) {
      if (verb === '%') { return '%'; }
      var i = index ? parseInt(index, 10) - 1 : next;
      next = i + 1;
      return i < args.length ? String(args[i]) : m;
    });
  }
  // pluralForm is the CLDR plural category of the count n in the page's language, as
  // i18n.PluralForm.
  var plurals = {};
  function pluralForm(n) {
    try {
      if (!plurals[lang]) { plurals[lang] = new Intl.PluralRules(lang); }
      return plurals[lang].select(n);
    } catch (e) { return 'other'; }
  }

  // Telegram: theme, viewport, haptics. Everything here is optional.
  var themeKeys = {
    bg_color: '--bg', text_color: '--text', hint_color: '--hint', button_color: '--accent',
    button_text_color: '--accent-text', secondary_bg_color: '--card', destructive_text_color: '--danger'
  };
  function applyTheme() {
    var w = webApp(), p = null;
    if (w && w.themeParams && Object.keys(w.themeParams).length) { p = w.themeParams; }
    if (!p) { try { p = JSON.parse(hash.get('tgWebAppThemeParams') || 'null'); } catch (e) { p = null; } }
    if (!p || typeof p !== 'object') { return; }
    var root = document.documentElement;
    for (var k in themeKeys) {
      var v = p[k];
      if (typeof v === 'string' && /^#[0-9a-f]{3,8}$/i.test(v)) { root.style.setProperty(themeKeys[k], v); }
    }
    if (typeof p.bg_color === 'string') {
      var dark = luminance(p.bg_color) < 0.45;
      root.classList.toggle('dark', dark);
      root.classList.toggle('light', !dark);
    }
  }
  function luminance(hex) {
    var h = hex.replace('#', '');
    if (h.length === 3) { h = h[0] + h[0] + h[1] + h[1] + h[2] + h[2]; }
    var n = parseInt(h.slice(0, 6), 16);
    if (isNaN(n)) { return 1; }
    return (0.299 * (n >> 16 & 255) + 0.587 * (n >> 8 & 255) + 0.114 * (n & 255)) / 255;
  }
  var telegramReady = false;
  function onTelegram() {
    var w = webApp();
    if (!w || telegramReady) { return; }
    telegramReady = true;
    applyTheme();
    try {
      w.ready();
      w.expand();
      if (w.disableVerticalSwipes && w.isVersionAtLeast && w.isVersionAtLeast('7.7')) { w.disableVerticalSwipes(); }
      if (w.setHeaderColor && w.isVersionAtLeast && w.isVersionAtLeast('6.1')) { w.setHeaderColor('bg_color'); }
      w.onEvent('themeChanged', applyTheme);
    } catch (e) { /* an old client */ }
  }
  function haptic(kind) {
    var w = webApp();
    try {
      if (!w || !w.HapticFeedback || (w.isVersionAtLeast && !w.isVersionAtLeast('6.1'))) { return; }
      if (kind === 'tap') { w.HapticFeedback.impactOccurred('light'); } else { w.HapticFeedback.notificationOccurred(kind); }
    } catch (e) { /* no haptics */ }
  }

  // The API. Every request carries initData, and the page's language for the refusals of a
  // request whose initData fails its check; answers are {status, body}.
  function api(method, path, payload, signal) {
    var headers = { Authorization: 'tma ' + initData(), 'Accept-Language': lang };
    var opts = { method: method, headers: headers, cache: 'no-store', signal: signal };
    if (payload) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(payload);
    }
    return fetch(path, opts).then(function (res) {
      if (res.status === 204) { return { status: 204, body: null }; }
      return res.json().then(function (j) { return { status: res.status, body: j }; },
        function () { return { status: res.status, body: null }; });
    }, function () { return { status: 0, body: null }; });
  }
  function gameQuery(id) {
    var g = id || query.get('g') || '';
    return g ? '?g=' + encodeURIComponent(g) : '?';
  }
  function errorText(r) {
    if (r.body && r.body.error && r.body.error.text) { return r.body.error.text; }
    return r.status === 0 ? t('app.offline') : t('app.failed');
  }

  // Drawing.
  function sqName(i, n) { return String.fromCharCode(97 + i % n) + (Math.floor(i / n) + 1); }
  function sqIndex(sq, n) { return (parseInt(sq.slice(1), 10) - 1) * n + (sq.charCodeAt(0) - 97); }

  function build(n) {
    var frag = document.createDocumentFragment();
    cells = [];
    boardEl.textContent = '';
    for (var i = 0; i < n * n; i++) {
      var c = document.createElement('div');
      c.className = 'cell';
      c.setAttribute('role', 'gridcell');
      c.dataset.sq = sqName(i, n);
      c.dataset.disc = '';
      c.appendChild(document.createElement('i'));
      cells.push(c);
      frag.appendChild(c);
    }
    // The four marked points of a real board, at the quarters.
    [[n / 4, n / 4], [n / 4, 3 * n / 4], [3 * n / 4, n / 4], [3 * n / 4, 3 * n / 4]].forEach(function (p) {
      if (n < 8) { return; }
      var s = document.createElement('span');
      s.className = 'star';
      s.style.left = (100 * p[0] / n) + '%';
      s.style.top = (100 * p[1] / n) + '%';
      frag.appendChild(s);
    });
    boardEl.appendChild(frag);
    var cols = $('cols'), rows = $('rows');
    cols.textContent = '';
    rows.textContent = '';
    for (var k = 0; k < n; k++) {
      var a = document.createElement('span');
      a.textContent = String.fromCharCode(97 + k);
      cols.appendChild(a);
      var b = document.createElement('span');
      b.textContent = String(k + 1);
      rows.appendChild(b);
    }
    var root = document.documentElement.style;
    root.setProperty('--n', String(n));
    root.setProperty('--coord', n > 10 ? '12px' : '16px');
    body.classList.toggle('big', n > 10);
    boardEl.dataset.size = String(n);
    shown = null;
  }

  var discOf = { X: 'b', O: 'w', '-': '' };

  // drawBoard draws the discs of st, animating what changed since the board shown: a disc
  // placed pops in, a disc turned over flips, staggered by its distance from from (the square
  // just played, if any).
  function drawBoard(st, from) {
    var n = st.size;
    if (cells.length !== n * n) { build(n); }
    var legal = {};
    if (st.can_move && !pending && st.legal) { st.legal.forEach(function (s) { legal[s] = true; }); }
    var fi = from ? sqIndex(from, n) : -1;
    for (var i = 0; i < n * n; i++) {
      var c = cells[i], d = discOf[st.board[i]] || '';
      var old = shown ? discOf[shown[i]] || '' : d;
      if (c.dataset.disc !== d) { c.dataset.disc = d; }
      if (shown && old !== d) {
        c.classList.remove('place', 'flip');
        void c.offsetWidth; // restart the animation
        var kind = old === '' ? 'place' : 'flip';
        var delay = 0;
        if (kind === 'flip' && fi >= 0) {
          var dist = Math.max(Math.abs(i % n - fi % n), Math.abs(Math.floor(i / n) - Math.floor(fi / n)));
          delay = 60 + 45 * (dist - 1);
        }
        c.firstChild.style.animationDelay = delay + 'ms';
        c.classList.add(kind);
      }
      c.classList.toggle('legal', !!legal[c.dataset.sq]);
      c.classList.toggle('last', st.last === c.dataset.sq);
      c.classList.toggle('pending', pending === c.dataset.sq);
    }
    shown = st.board;
    boardEl.dataset.version = String(st.version);
    boardEl.dataset.ply = String(st.ply);
    body.classList.toggle('you-white', st.you === 'white');
  }

  function playerTag(p, st) {
    if (p.you) { return t('app.you'); }
    if (!p.seat) { return '…'; }
    if (st.status === 'lobby') { return ''; }
    return p.color === 'white' ? t('app.white') : t('app.black');
  }

  // statusOf is the line under the players: whose move it is, or the result.
  function statusOf(st) {
    if (st.status === 'lobby') { return { cls: 'wait', text: t('app.lobby') }; }
    if (st.status === 'finished') {
      var r = st.result || {};
      return { cls: 'end ' + (r.mine || ''), text: r.text || '' };
    }
    if (pending) { return { cls: 'wait', text: t('app.sending') }; }
    var mover = st.players[st.turn === 'white' ? 1 : 0];
    if (st.can_move) { return { cls: 'mine', text: t('app.your_move') }; }
    if (st.thinking) { return { cls: 'wait', text: t('app.thinking') }; }
    if (st.player) { return { cls: 'wait', text: t('app.waiting_for', mover.name) }; }
    return { cls: 'watch', text: t('app.to_move', mover.name) };
  }

  // setLang makes l the page's language, when the page has its texts.
  function setLang(l) {
    if (l && cat.texts[l]) { lang = l; }
    document.documentElement.lang = lang;
    document.title = t('app.title');
  }

  function draw(st, from) {
    setLang(st.lang);
    drawBoard(st, from);
    var lobby = st.status === 'lobby';
    var turn = st.status === 'playing' ? st.turn : '';
    ['black', 'white'].forEach(function (color, i) {
      var el = $('p-' + color), p = st.players[i];
      var name = p.name || '—', tag = playerTag(p, st);
      if (p.ai && p.level) { name = t('app.bot'); tag = p.level; } // the level below the name
      el.querySelector('.name').textContent = name;
      el.querySelector('.tag').textContent = tag;
      el.classList.toggle('turn', turn === color);
      el.classList.toggle('idle', !!turn && turn !== color);
      var count = $(color === 'white' ? 'score-w' : 'score-b'), n = st.score[color];
      count.textContent = lobby ? '' : String(n);
      if (lobby) { count.removeAttribute('aria-label'); } else { count.setAttribute('aria-label', t('app.discs', n)); }
    });
    body.classList.toggle('lobby', lobby);
    var s = statusOf(st);
    $('status').className = s.cls;
    $('status-text').textContent = s.text;
    var note = '';
    if (st.status === 'finished' && st.result && st.result.note) {
      note = st.result.note;
    } else if (st.passed && st.status === 'playing') {
      var passer = st.players[st.turn === 'white' ? 0 : 1];
      note = t('game.pass', passer.name);
    } else if (!st.player && !lobby) {
      note = t('app.watching');
    }
    $('note').textContent = note;
    // Moves are numbered by their disc, as in the chat: passes are not counted.
    var played = st.score.black + st.score.white - 4;
    var info = st.size + '×' + st.size;
    if (st.status === 'finished') {
      info += ' · ' + t('app.moves_played', played);
    } else if (!lobby) {
      info += ' · ' + t('app.move_number', played + 1);
    }
    $('info-left').textContent = info;
    $('info-right').textContent = st.last ? t('app.last_move', st.last) : '';
    body.dataset.state = 'ready';
    $('refusal').hidden = true;
  }

  // accept draws st when it is newer than what the page has; it reports whether it was.
  function accept(st, from) {
    if (!st || (cur && st.game === cur.game && st.version <= cur.version)) { return false; }
    cur = st;
    draw(st, from);
    if (st.status !== 'finished') { watch(); }
    return true;
  }

  // behind reports whether st, the game as the server has it stored, is older than the page's:
  // the store lost the writes the page showed (a Redis failover), and the page goes back.
  function behind(st) {
    return !!(st && cur && st.game === cur.game && st.version < cur.version);
  }

  // goBack draws st although the page has a newer version (behind).
  function goBack(st) {
    cur = st;
    draw(st);
    if (st.status !== 'finished') { watch(); }
  }

  function refuse(text) {
    body.dataset.state = 'refused';
    $('refusal-text').textContent = text;
    $('refusal').hidden = false;
    watching = false;
  }

  function toast(text) {
    var el = $('toast');
    el.textContent = text;
    el.classList.add('show');
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { el.classList.remove('show'); }, 3200);
  }

  function setConn(ok) {
    var el = $('conn');
    el.textContent = ok ? '' : t('app.reconnecting');
    el.classList.toggle('off', !ok);
  }

  // The viewer's move: shown at once, then as the server has it; rolled back when refused.
  function optimistic(st, sq) {
    var n = st.size, b = st.board.split('');
    var me = st.turn === 'white' ? 'O' : 'X', op = me === 'X' ? 'O' : 'X';
    var c0 = sq.charCodeAt(0) - 97, r0 = parseInt(sq.slice(1), 10) - 1;
    b[r0 * n + c0] = me;
    for (var dr = -1; dr <= 1; dr++) {
      for (var dc = -1; dc <= 1; dc++) {
        if (!dr && !dc) { continue; }
        var run = [], r = r0 + dr, c = c0 + dc;
        while (r >= 0 && r < n && c >= 0 && c < n && b[r * n + c] === op) { run.push(r * n + c); r += dr; c += dc; }
        if (run.length && r >= 0 && r < n && c >= 0 && c < n && b[r * n + c] === me) {
          run.forEach(function (k) { b[k] = me; });
        }
      }
    }
    var board = b.join('');
    var o = {};
    for (var k in st) { o[k] = st[k]; }
    o.board = board;
    o.can_move = false;
    o.legal = [];
    o.last = sq;
    o.score = { black: board.split('X').length - 1, white: board.split('O').length - 1 };
    return o;
  }

  function play(sq) {
    var st = cur;
    performance.mark('reversi:tap');
    pending = sq;
    haptic('tap');
    draw(optimistic(st, sq), sq);
    api('POST', 'api/move', { g: st.game, sq: sq, pos: st.pos, ver: st.version }).then(function (r) {
      pending = null;
      if (r.status === 200 && r.body) {
        if (!accept(r.body)) { draw(cur); }
        requestAnimationFrame(function () { performance.measure('reversi:tap-shown', 'reversi:tap'); });
        return;
      }
      if (r.status === 401) { refuse(errorText(r)); return; }
      var now = r.body && r.body.state;
      if (behind(now)) { goBack(now); } else if (!(now && accept(now))) { draw(cur); }
      toast(errorText(r));
      haptic('error');
    });
  }

  boardEl.addEventListener('click', function (ev) {
    var cell = ev.target.closest ? ev.target.closest('.cell') : null;
    if (!cell || !cur || pending) { return; }
    if (cur.can_move && cur.legal && cur.legal.indexOf(cell.dataset.sq) >= 0) {
      play(cell.dataset.sq);
    } else if (cur.can_move && cell.dataset.disc === '') {
      haptic('warning');
    }
  });

  // The live watch: a long poll that returns as soon as the game changes.
  function sleep(ms) { return new Promise(function (ok) { setTimeout(ok, ms); }); }
  function watch() {
    if (watching || !cur) { return; }
    watching = true;
    var backoff = 0;
    var loop = function () {
      if (!watching || !cur || cur.status === 'finished') { watching = false; return; }
      api('GET', 'api/watch' + gameQuery(cur.game) + '&after=' + cur.version).then(function (r) {
        if (r.status === 200 || r.status === 204) {
          backoff = 0;
          setConn(true);
          if (behind(r.body)) {
            goBack(r.body);
            toast(t('game.move_lost'));
            haptic('error');
          } else if (r.body) {
            accept(r.body);
          }
          return loop();
        }
        if (r.status === 401 || r.status === 403) { refuse(errorText(r)); return; }
        if (r.status === 404 || r.status === 410) { watching = false; toast(errorText(r)); return; }
        backoff = Math.min(backoff ? backoff * 2 : 1000, 15000);
        setConn(false);
        return sleep(backoff).then(loop);
      });
    };
    loop();
  }

  // refresh reads the game again. Before the first answer, a refusal that may pass (too many
  // requests, a busy server, no network) is shown and tried again a little later.
  var retryIn = 0;
  function refresh() {
    return api('GET', 'api/state' + gameQuery(cur && cur.game)).then(function (r) {
      if (r.status === 200 && r.body) { retryIn = 0; accept(r.body); return true; }
      var transient = r.status === 0 || r.status === 429 || r.status >= 500;
      if (!cur || r.status === 401 || r.status === 403) { refuse(errorText(r)); }
      if (!cur && transient) {
        retryIn = Math.min(retryIn ? retryIn * 2 : 1500, 15000);
        return sleep(retryIn).then(refresh);
      }
      return false;
    });
  }

  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'visible' && cur) { refresh(); }
  });

  function start() {
    setLang(lang);
    applyTheme();
    onTelegram();
    // Telegram's script is loaded from here, so that its load and its failure are seen.
    var tg = document.createElement('script');
    tg.src = 'https://telegram.org/js/telegram-web-app.js';
    tg.async = true;
    var go = function () {
      if (!initData()) { refuse(t('app.no_init_data')); return; }
      refresh().then(function (ok) {
        if (ok) { performance.mark('reversi:board'); }
      });
    };
    var waiting = !initData() && !webApp(); // initData may come with the script only
    var done = false;
    var loaded = function () {
      onTelegram();
      if (waiting && !done) { done = true; go(); }
    };
    tg.addEventListener('load', loaded);
    tg.addEventListener('error', loaded);
    document.head.appendChild(tg);
    if (!waiting) { go(); return; }
    setTimeout(loaded, 3000);
  }
  start();
})();
