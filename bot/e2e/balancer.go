// Package e2e runs several bots against one Bot API server the way a deployment runs several
// bot processes behind a load balancer: a Balancer takes the updates from the server (by
// getUpdates, as one long-polling front would) and hands each to one or more webhook handlers
// of its choice. The end-to-end tests of this package use it to prove that games do not
// depend on the process that serves them, and cmd/reversiload uses it to measure more than
// one process.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// SecretHeader is the header that carries the webhook secret token, as Telegram sends it.
const SecretHeader = "X-Telegram-Bot-Api-Secret-Token"

// Balancer takes updates from a Bot API server by long polling and delivers each to one or
// more Targets, in the order the server gave them, as Telegram's webhook would deliver them to
// processes behind a load balancer. The zero value is not usable: set APIURL, Token and
// Targets.
type Balancer struct {
	// APIURL is the Bot API server's base URL and Token the bot's token.
	APIURL, Token string
	// Targets are the webhook handlers of the bot processes (bot.Bot.WebhookHandler, or a
	// reverse proxy to a process's LISTEN_ADDR).
	Targets []http.Handler
	// Secret is sent as the X-Telegram-Bot-Api-Secret-Token header.
	Secret string
	// Route picks the targets of the n-th update taken (from 0), as indexes into Targets; the
	// update goes to each of them in turn. nil means round robin. Indexes out of range are
	// skipped; an empty answer drops the update.
	Route func(n int64) []int
	// Client makes the getUpdates requests; nil means a client with a 30 s timeout.
	Client *http.Client
	// Parallel is how many deliveries may be in flight at once, as Telegram keeps up to
	// max_connections (default 40) webhook requests open; 0 or 1 delivers one update at a
	// time, each after the one before was answered.
	Parallel int

	taken, delivered, failed atomic.Int64
}

// Stats counts what a Balancer did.
type Stats struct {
	Taken     int64 // updates taken from the server
	Delivered int64 // deliveries answered 2xx (an update sent to two targets counts twice)
	Failed    int64 // deliveries answered otherwise; the update then went to the next target
}

// Stats returns the counts so far; safe to call while Run runs.
func (b *Balancer) Stats() Stats {
	return Stats{Taken: b.taken.Load(), Delivered: b.delivered.Load(), Failed: b.failed.Load()}
}

// Run takes and delivers updates until ctx ends, then returns nil. Every update Run took has
// been delivered (or failed on every target) when it returns. It returns an error only when
// the server answers getUpdates with an error it cannot wait out.
func (b *Balancer) Run(ctx context.Context) error {
	if len(b.Targets) == 0 {
		return errors.New("e2e: balancer without targets")
	}
	client := b.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	endpoint := strings.TrimRight(b.APIURL, "/") + "/bot" + b.Token + "/getUpdates"
	var (
		offset int64
		wg     sync.WaitGroup
		slots  = make(chan struct{}, max(b.Parallel, 1))
	)
	defer wg.Wait()
	for ctx.Err() == nil {
		batch, err := b.poll(ctx, client, endpoint, offset)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		for _, raw := range batch {
			var head struct {
				ID int64 `json:"update_id"`
			}
			if json.Unmarshal(raw, &head) != nil {
				continue
			}
			offset = max(offset, head.ID+1)
			n := b.taken.Add(1) - 1
			if b.Parallel <= 1 {
				b.deliver(n, raw)
				continue
			}
			slots <- struct{}{}
			wg.Go(func() {
				defer func() { <-slots }()
				b.deliver(n, raw)
			})
		}
	}
	return nil
}

// poll asks for the updates from offset on, waiting up to a second for one.
func (b *Balancer) poll(ctx context.Context, client *http.Client, endpoint string, offset int64) ([]json.RawMessage, error) {
	form := url.Values{"offset": {strconv.FormatInt(offset, 10)}, "timeout": {"1"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("e2e: getUpdates: %w", err)
	}
	defer resp.Body.Close()
	var out struct {
		OK          bool              `json:"ok"`
		Result      []json.RawMessage `json:"result"`
		Description string            `json:"description"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("e2e: getUpdates: %w", err)
	}
	if !out.OK {
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return nil, nil // wait it out: poll again
		}
		return nil, fmt.Errorf("e2e: getUpdates: %d %s", resp.StatusCode, out.Description)
	}
	return out.Result, nil
}

// deliver hands update n to the targets Route names; a target that does not answer 2xx (a
// process shutting down) passes the update on to the next target not named, so that, as with
// Telegram's retries, an update is lost only when every process refuses it.
func (b *Balancer) deliver(n int64, raw []byte) {
	var route []int
	if b.Route != nil {
		route = b.Route(n)
	} else {
		route = []int{int(n % int64(len(b.Targets)))}
	}
	named := make([]bool, len(b.Targets))
	for _, i := range route {
		if i < 0 || i >= len(b.Targets) {
			continue
		}
		named[i] = true
		if b.post(b.Targets[i], raw) {
			continue
		}
		for j := range b.Targets { // fail over to a target this update was not meant for
			if !named[j] {
				named[j] = true
				if b.post(b.Targets[j], raw) {
					break
				}
			}
		}
	}
}

// post delivers raw to h and reports whether h answered 2xx.
func (b *Balancer) post(h http.Handler, raw []byte) bool {
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if b.Secret != "" {
		req.Header.Set(SecretHeader, b.Secret)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	_, _ = io.Copy(io.Discard, rec.Body)
	if rec.Code/100 == 2 {
		b.delivered.Add(1)
		return true
	}
	b.failed.Add(1)
	return false
}
