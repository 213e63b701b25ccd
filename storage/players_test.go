package storage_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"sync"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// elo is a plain second implementation of the rating update, for differential testing.
func elo(ra, rb int, score float64) (int, int) {
	ea := 1 / (1 + math.Pow(10, float64(rb-ra)/400))
	eb := 1 / (1 + math.Pow(10, float64(ra-rb)/400))
	na := math.Floor(float64(ra) + game.EloK*(score-ea) + 0.5)
	nb := math.Floor(float64(rb) + game.EloK*((1-score)-eb) + 0.5)
	return int(na), int(nb)
}

func finished(id string, black, white int64, o game.Outcome) *game.Game {
	return &game.Game{
		ID: id, Size: 8, Flow: game.FlowInvite, Status: game.StatusFinished, Outcome: o,
		Players: [2]game.Player{{UserID: black, Name: "B" + string(rune('0'+black%10))}, {UserID: white, Name: "W" + string(rune('0'+white%10))}},
	}
}

// touch makes the users known to the store, as their first message to the bot does: only
// then do their results count.
func touch(t testing.TB, s *storage.Store, users ...int64) {
	t.Helper()
	for _, u := range users {
		if err := s.TouchUser(context.Background(), u, "U"+string(rune('0'+u%10))); err != nil {
			t.Fatal(err)
		}
	}
}

func TestProfileDefaults(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	p, err := s.Profile(ctx, 777)
	if err != nil {
		t.Fatal(err)
	}
	want := &game.Profile{UserID: 777, Stats: game.Stats{Rating: 1200}}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("Profile(new) = %+v, want %+v", p, want)
	}
	if err := s.TouchUser(ctx, 777, "Zoë"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLang(ctx, 777, "ru"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLang(ctx, 777, "a-very-long-language-tag"); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("SetLang(long) = %v, want ErrInvalid", err)
	}
	p, err = s.Profile(ctx, 777)
	if err != nil || p.Name != "Zoë" || p.Lang != "ru" || p.Stats.Rating != 1200 {
		t.Fatalf("Profile = %+v, %v; want name Zoë, lang ru, rating 1200", p, err)
	}
	if p.Style != game.StyleButtons {
		t.Errorf("Profile(new).Style = %v, want buttons", p.Style)
	}
	for _, st := range []game.Style{game.StyleImage, game.StyleButtons, game.StyleImage} {
		if err := s.SetStyle(ctx, 777, st); err != nil {
			t.Fatalf("SetStyle(%v) = %v", st, err)
		}
		if p, err = s.Profile(ctx, 777); err != nil || p.Style != st || p.Lang != "ru" {
			t.Fatalf("after SetStyle(%v): Profile = %+v, %v", st, p, err)
		}
	}
	if err := s.SetStyle(ctx, 777, 7); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("SetStyle(7) = %v, want ErrInvalid", err)
	}
	if lang, err := s.ChatLang(ctx, -100); err != nil || lang != "" {
		t.Fatalf("ChatLang(new) = %q, %v; want empty", lang, err)
	}
	if err := s.SetChatLang(ctx, -100, "en"); err != nil {
		t.Fatal(err)
	}
	if lang, err := s.ChatLang(ctx, -100); err != nil || lang != "en" {
		t.Fatalf("ChatLang = %q, %v; want en", lang, err)
	}
}

func TestRecordResultElo(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	// A sequence of games among three people; a model tracks what the store should hold.
	type rec struct{ w, l, d, r int }
	model := map[int64]*rec{1: {r: 1200}, 2: {r: 1200}, 3: {r: 1200}}
	games := []struct {
		black, white int64
		o            game.Outcome
	}{
		{1, 2, game.OutcomeBlack}, {1, 2, game.OutcomeBlack}, {2, 3, game.OutcomeDraw},
		{3, 1, game.OutcomeWhite}, {2, 1, game.OutcomeWhite}, {3, 2, game.OutcomeBlack},
		{1, 3, game.OutcomeDraw},
	}
	touch(t, s, 1, 2, 3)
	for i, gm := range games {
		g := finished("game"+string(rune('a'+i)), gm.black, gm.white, gm.o)
		score := map[game.Outcome]float64{game.OutcomeBlack: 1, game.OutcomeDraw: 0.5, game.OutcomeWhite: 0}[gm.o]
		b, w := model[gm.black], model[gm.white]
		want := game.RatingChange{Rated: true, Before: [2]int{b.r, w.r}}
		b.r, w.r = elo(b.r, w.r, score)
		want.After = [2]int{b.r, w.r}
		switch score {
		case 1:
			b.w++
			w.l++
		case 0:
			b.l++
			w.w++
		default:
			b.d++
			w.d++
		}
		// Recording twice (a retry) and concurrently must count once.
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				// Each call, first or not, tells the change the game made.
				if rc, err := s.RecordResult(ctx, g); err != nil || rc != want {
					t.Errorf("RecordResult(%s) = %+v, %v; want %+v", g.ID, rc, err, want)
				}
			})
		}
		wg.Wait()
	}
	for id, want := range model {
		p, err := s.Profile(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		got := rec{p.Stats.Wins, p.Stats.Losses, p.Stats.Draws, p.Stats.Rating}
		if got != *want {
			t.Errorf("user %d: %+v, want %+v", id, got, *want)
		}
	}
	top, err := s.Top(ctx, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(top) != 2 || top[0].Rating < top[1].Rating || top[0].Rating != model[top[0].UserID].r {
		t.Fatalf("Top(2) = %+v", top)
	}
	t.Logf("ratings: 1=%d 2=%d 3=%d", model[1].r, model[2].r, model[3].r)
}

func TestRecordResultAIAndGroups(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	touch(t, s, 50, 60, 61, 62, 70, 71, 72)
	ai := &game.Game{ID: "ai1", Size: 8, Flow: game.FlowAI, Status: game.StatusFinished, AILevel: 3,
		Players: [2]game.Player{{}, {UserID: 50, Name: "Human"}}, Outcome: game.OutcomeWhite}
	for range 2 {
		if _, err := s.RecordResult(ctx, ai); err != nil {
			t.Fatal(err)
		}
	}
	ai2 := *ai
	ai2.ID, ai2.Outcome = "ai2", game.OutcomeBlack
	if _, err := s.RecordResult(ctx, &ai2); err != nil {
		t.Fatal(err)
	}
	p, err := s.Profile(ctx, 50)
	if err != nil {
		t.Fatal(err)
	}
	want := game.Stats{Rating: 1200, VsAI: map[int]game.AIRecord{3: {Wins: 1, Losses: 1}}}
	if !reflect.DeepEqual(p.Stats, want) || p.Name != "Human" {
		t.Fatalf("after AI games: %+v, want %+v", p, want)
	}

	// Group games appear in that group's leaderboard and the global one.
	const group = -1001
	g := finished("grp1", 60, 61, game.OutcomeBlack)
	g.Flow, g.ChatID = game.FlowGroup, group
	if _, err := s.RecordResult(ctx, g); err != nil {
		t.Fatal(err)
	}
	other := finished("priv1", 62, 60, game.OutcomeBlack)
	if _, err := s.RecordResult(ctx, other); err != nil {
		t.Fatal(err)
	}
	top, err := s.Top(ctx, group, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(top) != 2 || top[0].UserID != 60 && top[0].UserID != 61 {
		t.Fatalf("group top = %+v, want users 60 and 61", top)
	}
	// Ratings shown are current (60 lost elsewhere after the group game).
	p60, _ := s.Profile(ctx, 60)
	for _, e := range top {
		if e.UserID == 60 && e.Rating != p60.Stats.Rating {
			t.Errorf("group top shows 60 at %d, current rating %d", e.Rating, p60.Stats.Rating)
		}
	}
	all, err := s.Top(ctx, 0, 10)
	if err != nil || len(all) != 3 {
		t.Fatalf("global top = %+v, %v; want 3 people (AI games are unrated)", all, err)
	}

	// Not finished, self-play and no-result games.
	playing := finished("p", 1, 2, game.OutcomeBlack)
	playing.Status = game.StatusPlaying
	if _, err := s.RecordResult(ctx, playing); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("RecordResult(playing) = %v, want ErrInvalid", err)
	}
	for _, g := range []*game.Game{finished("self", 70, 70, game.OutcomeBlack), finished("none", 71, 72, game.OutcomeNone)} {
		if _, err := s.RecordResult(ctx, g); err != nil {
			t.Errorf("RecordResult(%s) = %v", g.ID, err)
		}
	}
	if p, _ := s.Profile(ctx, 70); p.Stats.Wins+p.Stats.Losses != 0 {
		t.Errorf("self-play counted: %+v", p.Stats)
	}
}
