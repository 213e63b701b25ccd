package game_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// startGroupGame opens a group lobby by Alice (with the given colour choice) and lets Bob join.
func startGroupGame(t *testing.T, e *env, size int, color game.Choice) *game.Snapshot {
	t.Helper()
	lobby := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: alice,
		ChatID: group, Size: size, Color: color, Lang: "ru"}))
	if lobby.Game.Status != game.StatusLobby || lobby.Game.Players[0].UserID != alice.UserID {
		t.Fatalf("lobby %+v", lobby.Game)
	}
	_, err := e.svc.Move(e.ctx, lobby.Game.ID, alice.UserID, engine.SquareAt(3, 2), game.AnyPly)
	wantErr(t, "Move in a lobby", err, game.ErrNotStarted)
	_, err = e.svc.Join(e.ctx, lobby.Game.ID, alice)
	wantErr(t, "Join by the creator", err, game.ErrOwnLobby)
	r := e.ok(e.svc.Join(e.ctx, lobby.Game.ID, bob))
	if r.Game.Status != game.StatusPlaying || game.Side(r.Game, alice.UserID) < 0 || game.Side(r.Game, bob.UserID) < 0 {
		t.Fatalf("joined game %+v", r.Game)
	}
	_, err = e.svc.Join(e.ctx, lobby.Game.ID, carol)
	wantErr(t, "Join a full game", err, game.ErrLobbyTaken)
	return r
}

// playPeople plays both sides with the lowest legal move until the end.
func playPeople(t *testing.T, e *env, r *game.Snapshot) *game.Snapshot {
	t.Helper()
	for r.End == nil {
		_, p, ok := r.Turn()
		if !ok || r.Reply != nil {
			t.Fatalf("no turn in a game in play (AI to move %v)", r.Reply != nil)
		}
		r = e.ok(e.svc.Move(e.ctx, r.Game.ID, p.UserID, firstLegal(t, r), game.Ply(r.Game)))
		checkConsistent(t, r)
	}
	return r
}

func TestPeopleGameInGroup(t *testing.T) {
	e := newEnv(t)
	r := startGroupGame(t, e, 6, game.ChooseWhite)
	if r.Game.Players[1].UserID != alice.UserID || r.Game.Players[0].UserID != bob.UserID {
		t.Fatalf("Alice chose white, players are %+v", r.Game.Players)
	}
	if cur := e.ok(e.svc.Current(e.ctx, group)); cur.Game.ID != r.Game.ID {
		t.Fatalf("the group shows game %s, want %s", cur.Game.ID, r.Game.ID)
	}
	_, err := e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: carol, ChatID: group, Size: 8})
	wantErr(t, "a second lobby in the group", err, game.ErrAlreadyPlaying)

	sq := firstLegal(t, r)
	_, err = e.svc.Move(e.ctx, r.Game.ID, carol.UserID, sq, game.Ply(r.Game))
	wantErr(t, "Move by a spectator", err, game.ErrNotYourGame)
	_, err = e.svc.Move(e.ctx, r.Game.ID, alice.UserID, sq, game.Ply(r.Game))
	wantErr(t, "Move by white first", err, game.ErrNotYourTurn)
	_, err = e.svc.Undo(e.ctx, r.Game.ID, bob.UserID, game.AnyPly)
	wantErr(t, "Undo between people", err, game.ErrNotAIGame)
	_, err = e.svc.Hint(e.ctx, r.Game.ID, bob.UserID)
	wantErr(t, "Hint between people", err, game.ErrNotAIGame)

	r = playPeople(t, e, r)
	if r.End.Reason != game.EndNormal {
		t.Fatalf("ended %v", r.End.Reason)
	}
	pa, pb := e.profile(alice.UserID), e.profile(bob.UserID)
	t.Logf("result %v %d-%d; Alice %+v, Bob %+v", r.End.Outcome, r.End.Black, r.End.White, pa.Stats, pb.Stats)
	if pa.Stats.Wins+pa.Stats.Losses+pa.Stats.Draws != 1 || pb.Stats.Wins+pb.Stats.Losses+pb.Stats.Draws != 1 {
		t.Fatalf("each player should have one game: Alice %+v, Bob %+v", pa.Stats, pb.Stats)
	}
	if r.End.Outcome != game.OutcomeDraw && (pa.Stats.Rating == 1200 || pa.Stats.Rating+pb.Stats.Rating != 2400) {
		t.Fatalf("ratings %d and %d after a decided game", pa.Stats.Rating, pb.Stats.Rating)
	}
	// Settling again, resigning or moving in the finished game changes nothing.
	if err := e.svc.Settle(e.ctx, r.Game.ID); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	_, err = e.svc.Resign(e.ctx, r.Game.ID, alice.UserID)
	wantErr(t, "Resign a finished game", err, game.ErrGameOver)
	if pa2 := e.profile(alice.UserID); pa2.Stats.Rating != pa.Stats.Rating || pa2.Stats.Wins != pa.Stats.Wins {
		t.Fatalf("stats changed after the end: %+v then %+v", pa.Stats, pa2.Stats)
	}
	top, err := e.store.Top(e.ctx, group, 10)
	if err != nil || len(top) != 2 {
		t.Fatalf("group top = %+v, %v; want both players", top, err)
	}
	_, err = e.svc.Current(e.ctx, group)
	wantErr(t, "the group after the end", err, game.ErrNoGame)
}

// TestJoinReleasesLobbyMessages checks that the invitation message stops being a board when
// the game starts (so a move made before the new boards are posted cannot draw a board into
// it), that an inline lobby message stays the board, and that the lobby's style carries into
// the game and its rematch.
func TestJoinReleasesLobbyMessages(t *testing.T) {
	e := newEnv(t)
	lobby := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInvite, Creator: alice, Size: 8,
		Color: game.ChooseWhite, Style: game.StyleImage}))
	invite := game.MessageRef{ChatID: alice.ChatID, MessageID: 5}
	if _, err := e.svc.AddBoard(e.ctx, lobby.Game.ID, invite); err != nil {
		t.Fatal(err)
	}
	r := e.ok(e.svc.Join(e.ctx, lobby.Game.ID, bob))
	if len(r.Game.Boards) != 0 || len(r.Lobby) != 1 || r.Lobby[0] != invite {
		t.Fatalf("after Join: Boards %+v, Lobby %+v; want no boards and the invitation", r.Game.Boards, r.Lobby)
	}
	if r.Game.Style != game.StyleImage {
		t.Errorf("game style %v, want the lobby's image", r.Game.Style)
	}
	// Bob (black) moves before Alice's board is posted: the step lists no board of Alice's.
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, bob.UserID, firstLegal(t, r), game.AnyPly))
	for _, b := range r.Game.Boards {
		if b.ChatID == alice.ChatID {
			t.Fatalf("the invitation is a board again: %+v", r.Game.Boards)
		}
	}
	r = e.ok(e.svc.Resign(e.ctx, r.Game.ID, alice.UserID))
	re := e.ok(e.svc.Rematch(e.ctx, r.Game.ID, bob.UserID))
	if re.Game.Style != game.StyleImage {
		t.Errorf("rematch style %v, want image", re.Game.Style)
	}

	in := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInline, Creator: carol, InlineID: "inl-1", Size: 8}))
	if _, err := e.svc.AddBoard(e.ctx, in.Game.ID, game.MessageRef{InlineID: "inl-1"}); err != nil {
		t.Fatal(err)
	}
	r = e.ok(e.svc.Join(e.ctx, in.Game.ID, game.Player{UserID: 404, Name: "Dan"}))
	if len(r.Game.Boards) != 1 || r.Game.Boards[0].InlineID != "inl-1" || len(r.Lobby) != 0 {
		t.Fatalf("inline join: Boards %+v, Lobby %+v; want the inline message as the board", r.Game.Boards, r.Lobby)
	}
}

func TestRandomColours(t *testing.T) {
	e := newEnv(t)
	seen := map[int64]int{}
	for i := range 12 {
		lobby := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInvite, Creator: alice, Size: 8, Color: game.ChooseRandom}))
		joiner := game.Player{UserID: int64(1000 + i), ChatID: int64(1000 + i), Name: fmt.Sprint("p", i)}
		r := e.ok(e.svc.Join(e.ctx, lobby.Game.ID, joiner))
		seen[r.Game.Players[0].UserID]++
		e.ok(e.svc.Resign(e.ctx, r.Game.ID, joiner.UserID))
	}
	if seen[alice.UserID] == 0 || seen[alice.UserID] == 12 {
		t.Fatalf("Alice played black in %d of 12 games with random colours", seen[alice.UserID])
	}
}

func TestInviteBindsBothChats(t *testing.T) {
	e := newEnv(t)
	lobby := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInvite, Creator: alice, Size: 10, Color: game.ChooseBlack}))
	// The invite does not take the creator's chat until someone joins.
	_, err := e.svc.Current(e.ctx, alice.ChatID)
	wantErr(t, "Current before the join", err, game.ErrNoGame)
	r := e.ok(e.svc.Join(e.ctx, lobby.Game.ID, bob))
	for _, c := range []int64{alice.ChatID, bob.ChatID} {
		if cur := e.ok(e.svc.Current(e.ctx, c)); cur.Game.ID != r.Game.ID {
			t.Fatalf("chat %d shows %s, want %s", c, cur.Game.ID, r.Game.ID)
		}
	}
	if _, err := e.svc.AddBoard(e.ctx, r.Game.ID, game.MessageRef{ChatID: alice.ChatID, MessageID: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.AddBoard(e.ctx, r.Game.ID, game.MessageRef{ChatID: bob.ChatID, MessageID: 7}); err != nil {
		t.Fatal(err)
	}
	g, _ := e.svc.AddBoard(e.ctx, r.Game.ID, game.MessageRef{ChatID: alice.ChatID, MessageID: 2}) // /board again
	if len(g.Boards) != 2 || g.Boards[0].MessageID != 2 || g.Boards[1].MessageID != 7 {
		t.Fatalf("boards %+v, want Alice's message 2 and Bob's 7", g.Boards)
	}
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), 0))
	if len(r.Game.Boards) != 2 {
		t.Fatalf("the move's result lists boards %+v", r.Game.Boards)
	}
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, bob.UserID, firstLegal(t, r), game.AnyPly))
	r = e.ok(e.svc.Resign(e.ctx, r.Game.ID, bob.UserID))
	if r.End.Winner != 0 || r.End.Reason != game.EndResign {
		t.Fatalf("Bob resigned: %+v", r.End)
	}
	for _, c := range []int64{alice.ChatID, bob.ChatID} {
		_, err := e.svc.Current(e.ctx, c)
		wantErr(t, "Current after the end", err, game.ErrNoGame)
	}
	if pa := e.profile(alice.UserID); pa.Stats.Wins != 1 {
		t.Fatalf("Alice's stats %+v", pa.Stats)
	}
}

func TestInlineLobby(t *testing.T) {
	e := newEnv(t)
	l := game.Lobby{Flow: game.FlowInline, Creator: alice, InlineID: "AgAAAB1x", Size: 8}
	first := e.ok(e.svc.OpenLobby(e.ctx, l))
	again := e.ok(e.svc.OpenLobby(e.ctx, l))
	if again.Game.ID != first.Game.ID || !again.Existing {
		t.Fatalf("a second OpenLobby on one message made %s, want %s", again.Game.ID, first.Game.ID)
	}
	r := e.ok(e.svc.Join(e.ctx, first.Game.ID, bob))
	if cur := e.ok(e.svc.CurrentInline(e.ctx, l.InlineID)); cur.Game.ID != r.Game.ID || cur.Game.Status != game.StatusPlaying {
		t.Fatalf("the message shows %+v", cur.Game)
	}
	r = e.ok(e.svc.Resign(e.ctx, r.Game.ID, alice.UserID))
	n := e.ok(e.svc.Rematch(e.ctx, r.Game.ID, bob.UserID))
	if n.Game.InlineID != l.InlineID || len(n.Game.Boards) != 1 || n.Game.Boards[0].InlineID != l.InlineID {
		t.Fatalf("inline rematch %+v does not live in the same message", n.Game)
	}
	if cur := e.ok(e.svc.CurrentInline(e.ctx, l.InlineID)); cur.Game.ID != n.Game.ID {
		t.Fatalf("the message shows %s after the rematch, want %s", cur.Game.ID, n.Game.ID)
	}
}

func TestCancelLobby(t *testing.T) {
	e := newEnv(t)
	lobby := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: alice, ChatID: group, Size: 8}))
	_, err := e.svc.Resign(e.ctx, lobby.Game.ID, bob.UserID)
	wantErr(t, "Resign a lobby by a stranger", err, game.ErrNotYourGame)
	r := e.ok(e.svc.Resign(e.ctx, lobby.Game.ID, alice.UserID))
	if r.End == nil || r.End.Reason != game.EndAbandoned || r.End.Winner != -1 {
		t.Fatalf("cancelled lobby %+v", r.End)
	}
	_, err = e.svc.Join(e.ctx, lobby.Game.ID, bob)
	wantErr(t, "Join a cancelled lobby", err, game.ErrGameOver)
	_, err = e.svc.Rematch(e.ctx, lobby.Game.ID, alice.UserID)
	wantErr(t, "Rematch a cancelled lobby", err, game.ErrGameOver)
	if pa := e.profile(alice.UserID); pa.Stats.Wins+pa.Stats.Losses+pa.Stats.Draws != 0 {
		t.Fatalf("a cancelled lobby counted: %+v", pa.Stats)
	}
	e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: bob, ChatID: group, Size: 8}))
}

func TestMoveErrors(t *testing.T) {
	e := newEnv(t)
	r := startGroupGame(t, e, 8, game.ChooseBlack) // Alice black
	ply := game.Ply(r.Game)
	for _, tc := range []struct {
		name string
		id   string
		user int64
		sq   string
		ply  int
		want error
	}{
		{"no such game", "NoSuchGame", alice.UserID, "d3", ply, game.ErrNoGame},
		{"empty id", "", alice.UserID, "d3", ply, game.ErrNoGame},
		{"spectator", r.Game.ID, carol.UserID, "d3", ply, game.ErrNotYourGame},
		{"the AI's id", r.Game.ID, 0, "d3", ply, game.ErrNotYourGame},
		{"wrong turn", r.Game.ID, bob.UserID, "d3", ply, game.ErrNotYourTurn},
		{"stale ply", r.Game.ID, alice.UserID, "d3", ply + 1, game.ErrStale},
		{"far ply", r.Game.ID, alice.UserID, "d3", ply + 100, game.ErrStale},
		{"occupied", r.Game.ID, alice.UserID, "d4", ply, game.ErrOccupied},
		{"illegal", r.Game.ID, alice.UserID, "a1", ply, game.ErrIllegal},
		{"off board", r.Game.ID, alice.UserID, "i1", ply, game.ErrOffBoard},
		{"off board row", r.Game.ID, alice.UserID, "a9", ply, game.ErrOffBoard},
		{"pass", r.Game.ID, alice.UserID, "pass", ply, game.ErrOffBoard},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sq, err := engine.ParseSquare(tc.sq)
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.svc.Move(e.ctx, tc.id, tc.user, sq, tc.ply)
			wantErr(t, fmt.Sprintf("Move(%s, %d, %s, %d)", tc.id, tc.user, tc.sq, tc.ply), err, tc.want)
		})
	}
	_, err := e.svc.Move(e.ctx, r.Game.ID, alice.UserID, engine.Square(300), game.AnyPly)
	wantErr(t, "Move(300)", err, game.ErrOffBoard)
	if g := e.ok(e.svc.Game(e.ctx, r.Game.ID)); g.Game.Version != r.Game.Version || len(g.Game.Moves) != 0 {
		t.Fatalf("rejected moves changed the game: version %d, moves %x", g.Game.Version, g.Game.Moves)
	}
	// A typed move (AnyPly) is checked against the newest board.
	d3, _ := engine.ParseSquare("d3")
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, d3, game.AnyPly))
	if last, ok := r.LastMove(); !ok || last != d3 || r.Played[0].Flips.Len() != 1 {
		t.Fatalf("LastMove = %v, %v; flips %v", last, ok, r.Played[0].Flips.Squares())
	}
}

func TestConcurrentMoves(t *testing.T) {
	e := newEnv(t)
	r := startGroupGame(t, e, 8, game.ChooseBlack)
	for round := range 10 {
		_, p, _ := r.Turn()
		moves := r.Pos.LegalMoves()
		ply := game.Ply(r.Game)
		const racers = 6
		var wg sync.WaitGroup
		results := make([]*game.Snapshot, racers)
		errs := make([]error, racers)
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], errs[i] = e.svc.Move(e.ctx, r.Game.ID, p.UserID, moves[i%len(moves)], ply)
			}()
		}
		wg.Wait()
		applied := 0
		for i, err := range errs {
			switch {
			case err == nil:
				applied++
				r = results[i]
			case errors.Is(err, game.ErrStale), errors.Is(err, game.ErrConflict):
			default:
				t.Fatalf("round %d racer %d: %v", round, i, err)
			}
		}
		g := e.ok(e.svc.Game(e.ctx, r.Game.ID))
		if applied != 1 || game.Ply(g.Game) != ply+1 {
			t.Fatalf("round %d: %d moves applied, ply %d -> %d; want exactly one", round, applied, ply, game.Ply(g.Game))
		}
		checkConsistent(t, g)
		if r.End != nil {
			break
		}
	}
}

func TestClaimIdle(t *testing.T) {
	e := newEnv(t)
	r := startGroupGame(t, e, 8, game.ChooseBlack) // Alice black, to move
	_, err := e.svc.ClaimIdle(e.ctx, r.Game.ID, alice.UserID)
	wantErr(t, "claim on one's own turn", err, game.ErrNotIdle)
	_, err = e.svc.ClaimIdle(e.ctx, r.Game.ID, carol.UserID)
	wantErr(t, "claim by a spectator", err, game.ErrNotYourGame)

	e.clock.Add(40 * time.Minute)
	_, err = e.svc.ClaimIdle(e.ctx, r.Game.ID, bob.UserID)
	var idle *game.IdleError
	if !errors.As(err, &idle) || !errors.Is(err, game.ErrNotIdle) || idle.Left != 20*time.Minute {
		t.Fatalf("early claim: %v, want an IdleError with 20m left", err)
	}
	// A move restarts the clock for the other side.
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), game.AnyPly))
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, bob.UserID, firstLegal(t, r), game.AnyPly))
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), game.AnyPly))
	e.clock.Add(59 * time.Minute)
	_, err = e.svc.ClaimIdle(e.ctx, r.Game.ID, alice.UserID)
	wantErr(t, "claim a minute early", err, game.ErrNotIdle)
	e.clock.Add(time.Minute)
	r = e.ok(e.svc.ClaimIdle(e.ctx, r.Game.ID, alice.UserID))
	if r.End == nil || r.End.Reason != game.EndTimeout || r.End.Winner != 0 {
		t.Fatalf("claimed game ended %+v", r.End)
	}
	if pb := e.profile(bob.UserID); pb.Stats.Losses != 1 {
		t.Fatalf("Bob's stats after losing on time: %+v", pb.Stats)
	}

	ai := e.ok(e.svc.NewAIGame(e.ctx, carol, carol.ChatID, 8, 1, game.ChooseWhite))
	_, err = e.svc.ClaimIdle(e.ctx, ai.Game.ID, carol.UserID)
	wantErr(t, "claim against the AI", err, game.ErrPeopleOnly)
}

// TestClaimIdleCountsFromLastMove checks that the idle clock runs from the last move, not
// from the game's last write: posting the board again (AddBoard) does not restart it.
func TestClaimIdleCountsFromLastMove(t *testing.T) {
	e := newEnv(t)
	r := startGroupGame(t, e, 8, game.ChooseBlack) // Alice black, to move
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), game.AnyPly))
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, bob.UserID, firstLegal(t, r), game.AnyPly))
	start := e.clock.Now()
	if !r.Game.LastMoveAt.Equal(start) {
		t.Fatalf("LastMoveAt after the join = %v, want %v", r.Game.LastMoveAt, start)
	}
	e.clock.Add(50 * time.Minute)
	g, err := e.svc.AddBoard(e.ctx, r.Game.ID, game.MessageRef{ChatID: r.Game.ChatID, MessageID: 999})
	if err != nil {
		t.Fatal(err)
	}
	if !g.Updated.Equal(e.clock.Now()) || !g.LastMoveAt.Equal(start) {
		t.Fatalf("after AddBoard: Updated %v, LastMoveAt %v; want %v and %v", g.Updated, g.LastMoveAt, e.clock.Now(), start)
	}
	if left := e.svc.IdleLeft(g); left != 10*time.Minute {
		t.Fatalf("IdleLeft after reposting the board = %v, want 10m", left)
	}
	e.clock.Add(10 * time.Minute)
	r = e.ok(e.svc.ClaimIdle(e.ctx, r.Game.ID, bob.UserID))
	if r.End == nil || r.End.Reason != game.EndTimeout {
		t.Fatalf("claim an hour after the join (50 minutes after /board) ended %+v", r.End)
	}

	// A game stored before LastMoveAt existed counts from its last update.
	old := r.Game.Clone()
	old.LastMoveAt = time.Time{}
	old.Updated = e.clock.Now().Add(-15 * time.Minute)
	if left := e.svc.IdleLeft(old); left != 45*time.Minute {
		t.Errorf("IdleLeft without LastMoveAt = %v, want 45m", left)
	}
}

func TestMatchmaking(t *testing.T) {
	e := newEnv(t)
	q := e.ok(e.svc.Find(e.ctx, alice, 8))
	if !q.Queued || q.Game != nil {
		t.Fatalf("first Find: %+v, want queued", q)
	}
	if ok, err := e.svc.CancelFind(e.ctx, alice.UserID); !ok || err != nil {
		t.Fatalf("CancelFind = %v, %v; want true", ok, err)
	}
	if ok, _ := e.svc.CancelFind(e.ctx, alice.UserID); ok {
		t.Fatal("CancelFind twice reported true")
	}
	// Bob now waits alone; Carol on another size does not meet him.
	if r := e.ok(e.svc.Find(e.ctx, bob, 8)); !r.Queued {
		t.Fatal("Bob should wait")
	}
	if r := e.ok(e.svc.Find(e.ctx, carol, 10)); !r.Queued {
		t.Fatal("Carol on 10x10 should wait")
	}
	r := e.ok(e.svc.Find(e.ctx, alice, 8))
	if r.Queued || r.Game == nil || r.Game.Flow != game.FlowMatch || r.Game.Status != game.StatusPlaying {
		t.Fatalf("Alice should be paired with Bob: %+v", r)
	}
	if game.Side(r.Game, alice.UserID) < 0 || game.Side(r.Game, bob.UserID) < 0 {
		t.Fatalf("paired players %+v", r.Game.Players)
	}
	for _, c := range []int64{alice.ChatID, bob.ChatID} {
		if cur := e.ok(e.svc.Current(e.ctx, c)); cur.Game.ID != r.Game.ID {
			t.Fatalf("chat %d not bound to the match", c)
		}
	}
	_, err := e.svc.Find(e.ctx, bob, 8)
	wantErr(t, "Find during a match", err, game.ErrAlreadyPlaying)
	// Carol starting a game against the AI leaves the queue.
	e.ok(e.svc.NewAIGame(e.ctx, carol, carol.ChatID, 8, 1, game.ChooseBlack))
	if ok, _ := e.svc.CancelFind(e.ctx, carol.UserID); ok {
		t.Fatal("Carol is still queued after starting a game")
	}
	_, err = e.svc.Find(e.ctx, alice, 7)
	wantErr(t, "Find on 7x7", err, game.ErrBadSize)
}

func TestPeopleRematch(t *testing.T) {
	e := newEnv(t)
	r := startGroupGame(t, e, 4, game.ChooseBlack)
	black, white := r.Game.Players[0].UserID, r.Game.Players[1].UserID
	r = playPeople(t, e, r)
	results := make(chan *game.Snapshot, 2)
	errs := make(chan error, 2)
	for _, u := range []int64{alice.UserID, bob.UserID} {
		go func() {
			r, err := e.svc.Rematch(e.ctx, r.Game.ID, u)
			results <- r
			errs <- err
		}()
	}
	// Both asking at once is consent of both: one asks, the other's ask accepts (or, losing
	// the compare-and-set, is to be tapped again).
	ids := map[string]bool{}
	for range 2 {
		res, err := <-results, <-errs
		if errors.Is(err, game.ErrConflict) {
			continue // tapping again is enough; checked below
		}
		if err != nil {
			t.Fatalf("Rematch: %v", err)
		}
		if res.Offered {
			continue
		}
		ids[res.Game.ID] = true
		if res.Game.Players[0].UserID != white || res.Game.Players[1].UserID != black {
			t.Fatalf("rematch players %+v, want colours swapped", res.Game.Players)
		}
	}
	if len(ids) == 0 {
		e.ok(e.svc.Rematch(e.ctx, r.Game.ID, alice.UserID))
		e.ok(e.svc.Rematch(e.ctx, r.Game.ID, bob.UserID))
	}
	again := e.ok(e.svc.Rematch(e.ctx, r.Game.ID, alice.UserID))
	ids[again.Game.ID] = true
	if len(ids) != 1 || !again.Existing {
		t.Fatalf("rematches made games %v, want exactly one", ids)
	}
	if cur := e.ok(e.svc.Current(e.ctx, group)); cur.Game.ID != again.Game.ID {
		t.Fatalf("the group shows %s, want the rematch %s", cur.Game.ID, again.Game.ID)
	}
}
