package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/go-telegram/bot/models"
)

// defaultExcluded are the update kinds Telegram sends only when asked for.
var defaultExcluded = map[string]bool{
	"chat_member": true, "message_reaction": true, "message_reaction_count": true,
}

func (st *state) allows(kind string) bool {
	if kind == "" {
		return true
	}
	if st.allowed == nil {
		return !defaultExcluded[kind]
	}
	return st.allowed[kind]
}

// enqueueLocked queues an update {update_id, kind: payload} and returns its
// id, or 0 when allowed_updates filters the kind out.
func (s *Server) enqueueLocked(kind string, payload any) int64 {
	if !s.st.allows(kind) {
		return 0
	}
	id := s.st.nextUpdateID
	s.st.nextUpdateID++
	return s.queueLocked(id, kind, mustJSON(map[string]any{kind: payload, "update_id": id}))
}

// pushLocked queues the update obj with the next update_id.
func (s *Server) pushLocked(kind string, obj map[string]json.RawMessage) int64 {
	id := s.st.nextUpdateID
	s.st.nextUpdateID++
	obj["update_id"] = json.RawMessage(strconv.FormatInt(id, 10))
	body, _ := json.Marshal(obj) // RawMessage values are valid JSON: cannot fail
	return s.queueLocked(id, kind, body)
}

func (s *Server) queueLocked(id int64, kind string, body []byte) int64 {
	s.st.updates = append(s.st.updates, pendingUpdate{id: id, kind: kind, body: body})
	s.st.nextSeq()
	s.st.fire(updatesKey)
	s.notifyLocked()
	return id
}

// Deliver queues u as the next update, giving it the next update id (its own
// ID is ignored), and returns that id. It returns 0 when the bot's
// allowed_updates exclude the update's kind.
func (s *Server) Deliver(u models.Update) int64 {
	raw, err := json.Marshal(&u)
	if err != nil {
		return 0
	}
	id, _ := s.DeliverRaw(raw)
	return id
}

// DeliverRaw queues any JSON object as the next update, setting its
// update_id; the object may be anything the fuzzing test wants the bot to
// swallow. It fails only when raw is not a JSON object.
func (s *Server) DeliverRaw(raw []byte) (int64, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return 0, fmt.Errorf("telegramtest: update is not a JSON object: %v", err)
	}
	delete(obj, "update_id")
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	kind := ""
	if len(keys) > 0 {
		kind = keys[0]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.st.allows(kind) {
		return 0, nil
	}
	return s.pushLocked(kind, obj), nil
}

// confirmLocked drops the updates getUpdates' offset confirms.
func (st *state) confirmLocked(offset int64) {
	switch {
	case offset > 0:
		i := 0
		for i < len(st.updates) && st.updates[i].id < offset {
			i++
		}
		st.updates = slices.Delete(st.updates, 0, i)
	case offset < 0:
		if keep := int(-offset); keep < len(st.updates) && -offset < 1<<31 {
			st.updates = slices.Delete(st.updates, 0, len(st.updates)-keep)
		}
	}
}

// batchLocked is the first limit queued updates.
func (st *state) batchLocked(limit int) []json.RawMessage {
	batch := make([]json.RawMessage, min(limit, len(st.updates)))
	for i := range batch {
		batch[i] = st.updates[i].body
	}
	return batch
}

func (s *Server) getUpdates(ctx context.Context, r *request) (any, *apiError) {
	offset, _ := r.int64("offset")
	limit := r.int("limit")
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	timeout := min(max(r.int("timeout"), 0), 3600)
	allowed, aerr := parseAllowed(r)
	if aerr != nil {
		return nil, aerr
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.webhook.url != "" {
		return nil, errWebhookActive
	}
	if r.has("allowed_updates") {
		s.st.allowed = allowed
	}
	s.st.confirmLocked(offset)
	s.st.pollGen++
	gen := s.st.pollGen
	s.st.fire(updatesKey) // an earlier poll still waiting ends with 409
	s.notifyLocked()

	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(time.Duration(timeout) * time.Second)
		defer t.Stop()
		expired = t.C
	}
	for {
		switch {
		case gen != s.st.pollGen:
			return nil, errTerminated
		case s.st.webhook.url != "":
			return nil, errWebhookActive
		case len(s.st.updates) > 0 || timeout == 0 || s.st.closed:
			return s.st.batchLocked(limit), nil
		}
		w := s.st.watch(updatesKey)
		s.mu.Unlock()
		select {
		case <-w.ch:
		case <-expired:
			timeout = 0
		case <-ctx.Done():
			timeout = 0 // the client is gone: answer (nobody reads it) and stop
		}
		s.mu.Lock()
		s.st.unwatch(updatesKey, w)
	}
}

// webhookLoop delivers queued updates to the webhook, in order, one at a time.
func (s *Server) webhookLoop() {
	defer s.wg.Done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for {
		s.mu.Lock()
		for !s.st.closed && (s.st.webhook.url == "" || len(s.st.updates) == 0) {
			w := s.st.watch(updatesKey)
			s.mu.Unlock()
			select {
			case <-w.ch:
			case <-s.done:
			}
			s.mu.Lock()
			s.st.unwatch(updatesKey, w)
		}
		if s.st.closed {
			s.mu.Unlock()
			return
		}
		u, target, secret := s.st.updates[0], s.st.webhook.url, s.st.webhook.secret
		s.mu.Unlock()

		err := s.post(ctx, target, secret, u.body)

		s.mu.Lock()
		w := &s.st.webhook
		head := len(s.st.updates) > 0 && s.st.updates[0].id == u.id
		var pause time.Duration
		if err == nil {
			w.stats.Delivered++
			w.attempts = 0
			if head {
				s.st.updates = s.st.updates[1:]
			}
		} else {
			w.stats.Failed++
			w.stats.LastError = err.Error()
			w.lastError = s.nowUnix()
			w.attempts++
			if w.attempts >= s.cfg.webhookAttempts {
				w.stats.Dropped++
				w.attempts = 0
				if head {
					s.st.updates = s.st.updates[1:]
				}
			} else {
				pause = s.cfg.webhookBackoff << (w.attempts - 1)
			}
		}
		s.st.nextSeq()
		s.notifyLocked()
		s.mu.Unlock()

		if pause > 0 {
			t := time.NewTimer(pause)
			select {
			case <-t.C:
			case <-s.done:
				t.Stop()
				return
			}
		}
	}
}

// post sends one update to the webhook; a non-2xx answer is an error.
func (s *Server) post(ctx context.Context, target, secret string, body []byte) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { // ends the request when the server closes
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
	}
	resp, err := s.whc.Do(req)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return errors.New("server closed")
		}
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	_ = resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("wrong response from the webhook: %s", resp.Status)
	}
	return nil
}
