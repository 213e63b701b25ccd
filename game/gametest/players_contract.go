package gametest

import (
	"testing"

	"github.com/reversibot/reversi/game"
)

// TestPlayers checks that the stores newStore makes keep the contract of game.PlayerStore:
// only known people's results count, once per game and within each one's cap of marks, with
// Elo ratings and leaderboards; choices of language and board style are kept and forgotten;
// turn notices are swapped and dropped one at a time.
func TestPlayers(t *testing.T, newStore func(t *testing.T) game.PlayerStore) {
	t.Helper()
	t.Run("Results", func(t *testing.T) { testResults(t, newStore(t)) })
	t.Run("AIResults", func(t *testing.T) { testAIResults(t, newStore(t)) })
	t.Run("Choices", func(t *testing.T) { testChoices(t, newStore(t)) })
	t.Run("TurnNotices", func(t *testing.T) { testTurnNotices(t, newStore(t)) })
	t.Run("ResultCap", func(t *testing.T) { testResultCap(t, newStore(t)) })
}

// testTurnNotices: each swap returns the notice recorded before it, per user, with what it
// claimed; a notice is dropped only while it is the newest, and only once.
func testTurnNotices(t *testing.T, s game.PlayerStore) {
	turn := func(msg int, id string, version int64, moves int) game.TurnNotice {
		return game.TurnNotice{MessageID: msg, GameID: id, Version: version, Moves: moves}
	}
	for i, step := range []struct {
		user    int64
		n, prev game.TurnNotice
	}{
		{1, turn(10, "g1", 3, 1), game.TurnNotice{}},
		{1, turn(11, "", 0, 0), turn(10, "g1", 3, 1)},
		{2, turn(20, "g2", 7, 5), game.TurnNotice{}},
		{1, turn(12, "g1", 5, 3), turn(11, "", 0, 0)},
		{2, turn(21, "g2", 9, 7), turn(20, "g2", 7, 5)},
	} {
		if prev, err := s.SwapTurnNotice(bg, step.user, step.n); err != nil || prev != step.prev {
			t.Fatalf("step %d: SwapTurnNotice(%d, %+v) = %+v, %v; want %+v", i, step.user, step.n, prev, err, step.prev)
		}
	}
	if n, err := s.NewestTurnNotice(bg, 1); err != nil || n != turn(12, "g1", 5, 3) {
		t.Fatalf("NewestTurnNotice(1) = %+v, %v; want the last swapped in", n, err)
	}
	if n, err := s.NewestTurnNotice(bg, 3); err != nil || n != (game.TurnNotice{}) {
		t.Fatalf("NewestTurnNotice of a user never told = %+v, %v; want none", n, err)
	}
	// Only the newest notice is dropped, and once.
	for i, step := range []struct {
		n    game.TurnNotice
		want bool
	}{{turn(11, "", 0, 0), false}, {turn(12, "g1", 5, 2), false}, {turn(12, "g1", 5, 3), true}, {turn(12, "g1", 5, 3), false}} {
		if ok, err := s.DropTurnNotice(bg, 1, step.n); err != nil || ok != step.want {
			t.Fatalf("drop %d: DropTurnNotice(1, %+v) = %v, %v; want %v", i, step.n, ok, err, step.want)
		}
	}
	if n, err := s.NewestTurnNotice(bg, 1); err != nil || n != (game.TurnNotice{}) {
		t.Fatalf("NewestTurnNotice(1) after the drop = %+v, %v; want none", n, err)
	}
	if n, err := s.NewestTurnNotice(bg, 2); err != nil || n != turn(21, "g2", 9, 7) {
		t.Fatalf("NewestTurnNotice(2) = %+v, %v; the other user's notice is gone", n, err)
	}
	if prev, err := s.SwapTurnNotice(bg, 1, turn(13, "g3", 1, 0)); err != nil || prev != (game.TurnNotice{}) {
		t.Fatalf("SwapTurnNotice after the drop = %+v, %v; want none before", prev, err)
	}
}

// testChoices: a user's language and board style, and a chat's language, are kept and can be
// forgotten; only a choice made makes a user known.
func testChoices(t *testing.T, s game.PlayerStore) {
	if err := s.SetLang(bg, 1, "ru"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStyle(bg, 1, game.StyleImage); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Profile(bg, 1); err != nil || p.Lang != "ru" || p.Style != game.StyleImage {
		t.Fatalf("Profile after SetLang ru, SetStyle image = %+v, %v", p, err)
	}
	if err := s.SetLang(bg, 1, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStyle(bg, 1, game.StyleButtons); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Profile(bg, 1); err != nil || p.Lang != "" || p.Style != game.StyleButtons {
		t.Fatalf("Profile after forgetting the choices = %+v, %v", p, err)
	}
	wantCode(t, "SetStyle of an unknown style", s.SetStyle(bg, 1, game.Style(9)), game.ErrInvalid)
	wantCode(t, "SetLang of a long code", s.SetLang(bg, 1, "abcdefghijklmnopq"), game.ErrInvalid)
	wantCode(t, "SetChatLang of a long code", s.SetChatLang(bg, -5, "abcdefghijklmnopq"), game.ErrInvalid)

	// A user who chose a language is known: their results count.
	if err := s.SetLang(bg, 2, "en"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStyle(bg, 3, game.StyleImage); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordResult(bg, finished("Game5", 2, 3, game.OutcomeDraw)); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Profile(bg, 2); p.Stats.Draws != 1 {
		t.Fatalf("a draw between users known by their choices did not count: %+v", p.Stats)
	}

	if l, err := s.ChatLang(bg, -5); err != nil || l != "" {
		t.Fatalf("ChatLang of a chat without a choice = %q, %v", l, err)
	}
	if err := s.SetChatLang(bg, -5, "ru"); err != nil {
		t.Fatal(err)
	}
	if l, err := s.ChatLang(bg, -5); err != nil || l != "ru" {
		t.Fatalf("ChatLang after SetChatLang ru = %q, %v", l, err)
	}
	if l, err := s.ChatLang(bg, -6); err != nil || l != "" {
		t.Fatalf("ChatLang of another chat = %q, %v", l, err)
	}
	if err := s.SetChatLang(bg, -5, ""); err != nil {
		t.Fatal(err)
	}
	if l, err := s.ChatLang(bg, -5); err != nil || l != "" {
		t.Fatalf("ChatLang after forgetting = %q, %v", l, err)
	}
}

func finished(id string, b, w int64, o game.Outcome) *game.Game {
	return &game.Game{ID: id, Size: 8, Flow: game.FlowGroup, Status: game.StatusFinished, Outcome: o,
		ChatID: -100, Players: [2]game.Player{{UserID: b, Name: "B"}, {UserID: w, Name: "W"}}}
}

func testResults(t *testing.T, s game.PlayerStore) {
	p, err := s.Profile(bg, 1)
	if err != nil || p.Stats.Rating != game.InitialRating || p.Stats.Wins+p.Stats.Losses+p.Stats.Draws != 0 {
		t.Fatalf("Profile of a stranger = %+v, %v", p, err)
	}
	for _, u := range []int64{1, 2} {
		if err := s.TouchUser(bg, u, "U"); err != nil {
			t.Fatal(err)
		}
	}
	g := finished("Game1", 1, 2, game.OutcomeBlack)
	want := game.RatingChange{Rated: true, Before: [2]int{game.InitialRating, game.InitialRating},
		After: [2]int{game.InitialRating + game.EloK/2, game.InitialRating - game.EloK/2}}
	for i := range 2 {
		// Recorded again, the game tells the same change: the one its first recording made.
		rc, err := s.RecordResult(bg, g)
		if err != nil {
			t.Fatal(err)
		}
		if rc != want || rc.Delta(0) != game.EloK/2 || rc.Delta(1) != -game.EloK/2 {
			t.Fatalf("RecordResult #%d of a rated win = %+v, want %+v", i+1, rc, want)
		}
	}
	b, _ := s.Profile(bg, 1)
	w, _ := s.Profile(bg, 2)
	if b.Stats.Wins != 1 || w.Stats.Losses != 1 || b.Stats.Rating != game.InitialRating+game.EloK/2 ||
		w.Stats.Rating != game.InitialRating-game.EloK/2 || b.Name != "B" {
		t.Fatalf("after one win recorded twice: black %+v, white %+v", b, w)
	}
	// A player nobody knows makes the game unrated.
	if rc, err := s.RecordResult(bg, finished("Game2", 1, 9, game.OutcomeBlack)); err != nil || rc.Rated {
		t.Fatalf("RecordResult against an unknown player = %+v, %v", rc, err)
	}
	if again, _ := s.Profile(bg, 1); again.Stats.Wins != 1 || again.Stats.Rating != b.Stats.Rating {
		t.Fatalf("a game against an unknown player counted: %+v", again)
	}
	for _, chat := range []int64{0, -100} {
		top, err := s.Top(bg, chat, 10)
		if err != nil || len(top) != 2 || top[0].UserID != 1 || top[1].UserID != 2 || top[0].Wins != 1 {
			t.Fatalf("Top(%d) = %+v, %v", chat, top, err)
		}
	}
	if top, err := s.Top(bg, -200, 10); err != nil || len(top) != 0 {
		t.Fatalf("Top of a group without games = %+v, %v", top, err)
	}
	playing := finished("Game3", 1, 2, game.OutcomeBlack)
	playing.Status = game.StatusPlaying
	_, err = s.RecordResult(bg, playing)
	wantCode(t, "RecordResult of a game in play", err, game.ErrInvalid)
}

func testAIResults(t *testing.T, s game.PlayerStore) {
	if err := s.TouchUser(bg, 1, "U"); err != nil {
		t.Fatal(err)
	}
	g := finished("Game4", 0, 1, game.OutcomeWhite)
	g.AILevel, g.Flow = 3, game.FlowAI
	for range 2 {
		if rc, err := s.RecordResult(bg, g); err != nil || rc.Rated {
			t.Fatalf("RecordResult against the AI = %+v, %v (it moves no rating)", rc, err)
		}
	}
	p, _ := s.Profile(bg, 1)
	if p.Stats.VsAI[3] != (game.AIRecord{Wins: 1}) || p.Stats.Wins != 0 || p.Stats.Rating != game.InitialRating {
		t.Fatalf("after a win against level 3: %+v", p.Stats)
	}
}
