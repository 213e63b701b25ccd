package webapptest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/reversibot/reversi/game/gametest"
	"go.uber.org/goleak"
)

// ErrNoBrowser is the error of StartBrowser when no Chromium is installed.
var ErrNoBrowser = errors.New("webapptest: no Chromium or Chrome found")

// WaitTimeout is how long Page.WaitFor and Page.Until wait before they give up: a failing
// guard against a page that never gets there, not a measure of speed.
const WaitTimeout = 15 * time.Second

// FindChromium returns the path of the browser to run: $CHROMIUM when it is set, else the
// first of Debian's chromium, chromium-browser, google-chrome and google-chrome-stable found
// in $PATH or /usr/bin. It returns ErrNoBrowser when there is none.
func FindChromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%w: CHROMIUM=%s: %v", ErrNoBrowser, p, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
		if p := "/usr/bin/" + name; fileExists(p) {
			return p, nil
		}
	}
	return "", ErrNoBrowser
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// Browser is a headless Chromium, started by StartBrowser, whose tabs are Pages. It is safe
// for concurrent use; each Page is a tab of its own.
type Browser struct {
	dir         string
	allocCancel context.CancelFunc
	ctx         context.Context // the browser's first tab: it keeps the browser
	cancel      context.CancelFunc
}

// StartBrowser starts a headless Chromium (FindChromium) with a fresh profile in a temporary
// directory, the flags that keep it quiet and off the network (--headless --no-sandbox
// --disable-gpu --disable-quic --no-first-run --disable-background-networking
// --disable-component-update --disable-sync), and a host resolver that finds no name but
// localhost, so that nothing leaves the machine: the pages' requests to telegram.org fail at
// once (or get a stub: see PageOptions.Telegram). Close it when done.
func StartBrowser() (*Browser, error) {
	path, err := FindChromium()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "webapptest-chromium-")
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(dir),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("disable-client-side-phishing-detection", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,InterestFeedContentSuggestions"),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("use-mock-keychain", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]"),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.WindowSize(360, 740),
	}
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		cancel()
		allocCancel()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("webapptest: start %s: %w", path, err)
	}
	return &Browser{dir: dir, allocCancel: allocCancel, ctx: ctx, cancel: cancel}, nil
}

// Close ends the browser and removes its profile.
func (b *Browser) Close() error {
	err := chromedp.Cancel(b.ctx)
	b.cancel()
	b.allocCancel()
	if rerr := os.RemoveAll(b.dir); err == nil {
		err = rerr
	}
	return err
}

var shared struct {
	mu  sync.Mutex
	b   *Browser
	err error
}

// Shared returns the browser that the tests of this binary share, started on the first call.
// When no Chromium is installed it skips tb, unless the environment variable BROWSER_TESTS is
// 1, when it fails tb; a browser that does not start fails tb. TestMain closes it
// (VerifyTestMain, or CloseShared after m.Run).
func Shared(tb testing.TB) *Browser {
	tb.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.b == nil && shared.err == nil {
		shared.b, shared.err = StartBrowser()
	}
	if shared.err != nil {
		if errors.Is(shared.err, ErrNoBrowser) && os.Getenv("BROWSER_TESTS") != "1" {
			tb.Skipf("%v (set BROWSER_TESTS=1 to fail instead)", shared.err)
		}
		tb.Fatal(shared.err)
	}
	return shared.b
}

// CloseShared closes the browser Shared started, if any.
func CloseShared() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.b != nil {
		shared.b.Close()
	}
	shared.b, shared.err = nil, nil
}

// VerifyTestMain runs the tests of m, closes the shared browser and exits with their code,
// failing the run when they passed but left goroutines behind, as gametest.VerifyTestMain does.
func VerifyTestMain(m *testing.M, opts ...goleak.Option) {
	code := m.Run()
	CloseShared()
	os.Exit(gametest.CheckLeaks(code, opts...))
}

// PageOptions tune a Page.
type PageOptions struct {
	// Width and Height are the viewport in CSS pixels; zero means a phone's 360×740.
	Width, Height int
	// Scale is the device pixel ratio (screenshots are Scale times larger); zero means 2.
	Scale float64
	// Telegram, when set, answers the page's request for telegram-web-app.js with a stub that
	// defines window.Telegram.WebApp as a client does (see TelegramStub). When nil, that
	// request fails, as it does with no network: the page must work without it.
	Telegram *TelegramStub
}

// TelegramStub is what the stub of telegram-web-app.js makes window.Telegram.WebApp hold.
// The stub records the calls of ready, expand and the haptic feedback in
// window.__tgCalls (an array of names, as "ready" or "haptic:light"), which Page.Eval reads.
type TelegramStub struct {
	InitData string            // WebApp.initData
	Theme    map[string]string // WebApp.themeParams; nil means none
	Version  string            // WebApp.version; "" means "8.0"
}

func (s *TelegramStub) script() []byte {
	theme := "{}"
	if s.Theme != nil {
		var b strings.Builder
		b.WriteByte('{')
		first := true
		for k, v := range s.Theme {
			if !first {
				b.WriteByte(',')
			}
			first = false
			fmt.Fprintf(&b, "%q:%q", k, v)
		}
		b.WriteByte('}')
		theme = b.String()
	}
	version := s.Version
	if version == "" {
		version = "8.0"
	}
	return fmt.Appendf(nil, `(function(){
var calls = window.__tgCalls = [];
function rec(n){ return function(){ calls.push(n + (arguments.length ? ':' + arguments[0] : '')); }; }
window.Telegram = { WebApp: {
  initData: %q, initDataUnsafe: {}, version: %q, platform: 'unknown',
  themeParams: %s, colorScheme: 'light',
  isVersionAtLeast: function(v){ return parseFloat(v) <= parseFloat(%q); },
  ready: rec('ready'), expand: rec('expand'), onEvent: rec('onEvent'),
  setHeaderColor: rec('setHeaderColor'), disableVerticalSwipes: rec('disableVerticalSwipes'),
  HapticFeedback: { impactOccurred: rec('haptic'), notificationOccurred: rec('notify') }
}};
})();`, s.InitData, version, theme, version)
}

// Page is one tab of a Browser showing the Mini App page. Its methods are safe to call from
// one goroutine at a time.
type Page struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	errs    []string
	blocked []string
}

// Open opens url in a new tab as NewPage does, failing tb when it cannot, and closes the tab
// when the test ends.
func (b *Browser) Open(tb testing.TB, url string, opt PageOptions) *Page {
	tb.Helper()
	p, err := b.NewPage(url, opt)
	if err != nil {
		tb.Fatalf("webapptest: open %s: %v", url, err)
	}
	tb.Cleanup(p.Close)
	return p
}

// NewPage opens url in a new tab with a phone's viewport (see PageOptions), and returns once
// the page has loaded. Requests that would leave the machine fail, except the stubbed
// telegram-web-app.js (PageOptions.Telegram). Close it when done.
func (b *Browser) NewPage(url string, opt PageOptions) (*Page, error) {
	if opt.Width == 0 {
		opt.Width = 360
	}
	if opt.Height == 0 {
		opt.Height = 740
	}
	if opt.Scale == 0 {
		opt.Scale = 2
	}
	ctx, cancel := chromedp.NewContext(b.ctx)
	p := &Page{ctx: ctx, cancel: cancel}
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		cancel()
		return nil, err
	}
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	console := chromedp.Console(ctx)
	p.wg.Add(2)
	go p.intercept(paused, opt.Telegram)
	go p.watchConsole(console)
	patterns := []*fetch.RequestPattern{{URLPattern: "https://*"}, {URLPattern: "http://telegram.org/*"},
		{URLPattern: "http://*.telegram.org/*"}}
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: patterns}); err != nil {
		p.Close()
		return nil, err
	}
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(int64(opt.Width), int64(opt.Height), chromedp.EmulateScale(opt.Scale),
			chromedp.EmulateMobile, chromedp.EmulatePortrait),
		chromedp.Navigate(url),
	)
	if err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// intercept answers the requests the Fetch domain pauses: the stub of telegram-web-app.js when
// there is one, a request to this machine goes on, and every other fails.
func (p *Page) intercept(paused iter.Seq2[fetch.EventRequestPaused, error], stub *TelegramStub) {
	defer p.wg.Done()
	for ev, err := range paused {
		if err != nil {
			return
		}
		var cerr error
		u, _ := url.Parse(ev.Request.URL)
		switch {
		case u != nil && loopback(u.Hostname()):
			_, cerr = chromedp.Call(p.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		case stub != nil && u != nil && strings.HasSuffix(u.Path, "/telegram-web-app.js"):
			_, cerr = chromedp.Call(p.ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{
				RequestID: ev.RequestID, ResponseCode: 200, Body: stub.script(),
				ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "text/javascript"}}})
		default:
			p.mu.Lock()
			p.blocked = append(p.blocked, ev.Request.URL)
			p.mu.Unlock()
			_, cerr = chromedp.Call(p.ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID,
				ErrorReason: network.ErrorReasonBlockedByClient})
		}
		if cerr != nil && p.ctx.Err() != nil {
			return
		}
	}
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// watchConsole keeps the page's uncaught exceptions, its console.error calls and what the
// browser reports as a security error (a violation of the Content-Security-Policy).
func (p *Page) watchConsole(msgs iter.Seq2[chromedp.ConsoleMessage, error]) {
	defer p.wg.Done()
	for m, err := range msgs {
		if err != nil {
			return
		}
		if m.IsException() || m.Type == chromedp.ConsoleError && (m.Source == "" || m.Source == "security") {
			p.mu.Lock()
			p.errs = append(p.errs, m.String())
			p.mu.Unlock()
		}
	}
}

// Close closes the tab.
func (p *Page) Close() {
	chromedp.Cancel(p.ctx)
	p.cancel()
	p.wg.Wait()
}

// Errors returns the page's uncaught exceptions, console.error messages and security errors
// so far: a test of a page that works expects none.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errs...)
}

// Blocked returns the URLs of the requests that were made to leave the machine and failed.
func (p *Page) Blocked() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.blocked...)
}

// Eval evaluates a JavaScript expression in the page (awaiting a promise) and decodes its
// value into out (nil: the value is dropped).
func (p *Page) Eval(expr string, out any) error {
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil || out == nil {
		return err
	}
	return jsonUnmarshal(raw, out)
}

// Tap clicks the square sq ("d3") of the board with the mouse, at its centre, as a finger's
// tap on a phone does.
func (p *Page) Tap(sq string) error {
	sel := fmt.Sprintf(`#board .cell[data-sq="%s"]`, sq)
	ctx, cancel := context.WithTimeout(p.ctx, WaitTimeout)
	defer cancel()
	return chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// Screenshot returns a PNG of the viewport.
func (p *Page) Screenshot() ([]byte, error) {
	return chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
}
