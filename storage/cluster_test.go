package storage_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// TestCluster runs every kind of operation through a cluster client on a one-node Redis
// Cluster that owns all slots. The node refuses a command or script whose declared keys fall
// in different slots (CROSSSLOT), so this checks that each operation's KEYS share a hash tag.
// Keys a script builds itself (queue entries, profiles read by Top) are not checked by a
// single node; they carry the same tag by construction (keys in store.go).
func TestCluster(t *testing.T) {
	ctx := context.Background()
	addr := startCluster(t)
	s, err := storage.Open(ctx, "redis+cluster://"+addr, storage.Options{Prefix: "c:"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, ok := s.Client().(*redis.ClusterClient); !ok {
		t.Fatalf("client is %T, want a cluster client", s.Client())
	}

	g := sampleGame(0)
	g.InlineID = "inl-1"
	if _, err := s.StartGame(ctx, g, game.Hosting{Chats: []int64{g.Players[0].ChatID, g.Players[1].ChatID},
		InlineID: g.InlineID}); err != nil {
		t.Fatal(err)
	}
	cur, err := s.GameByChat(ctx, g.Players[1].ChatID)
	if err != nil {
		t.Fatal(err)
	}
	cur.Moves = append(cur.Moves, 0x23)
	if err := s.UpdateGame(ctx, cur); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GameByInline(ctx, g.InlineID); err != nil {
		t.Fatal(err)
	}
	if err := s.UnbindChat(ctx, g.Players[0].ChatID, g.ID); err != nil {
		t.Fatal(err)
	}

	// An invitation joined, a start refused by a busy chat, a rematch made once: each one
	// script over a game, its chats and the games they show.
	lobby := &game.Game{Size: 8, Flow: game.FlowInvite, Status: game.StatusLobby,
		Players: [2]game.Player{{UserID: 7, ChatID: 7}}}
	if _, err := s.StartGame(ctx, lobby, game.Hosting{}); err != nil {
		t.Fatal(err)
	}
	lobby.Status, lobby.Players[1] = game.StatusPlaying, game.Player{UserID: 8, ChatID: 8}
	if err := s.JoinGame(ctx, lobby, []int64{7, 8}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartGame(ctx, sampleGame(0), game.Hosting{Chats: []int64{8}}); !errors.Is(err, game.ErrChatBusy) {
		t.Fatalf("StartGame in a busy chat = %v, want ErrChatBusy", err)
	}
	lobby.Status = game.StatusFinished
	if err := s.UpdateGame(ctx, lobby); err != nil {
		t.Fatal(err)
	}
	re := sampleGame(0)
	h := game.Hosting{Chats: []int64{7, 8}, InlineID: "inl-2", RematchOf: lobby.ID}
	if _, err := s.StartGame(ctx, re, h); err != nil {
		t.Fatal(err)
	}
	if ex, err := s.StartGame(ctx, sampleGame(0), h); err != nil || ex == nil || ex.ID != re.ID {
		t.Fatalf("second rematch = %v, %v; want the first, %s", ex, err, re.ID)
	}
	// A review kept no longer than its game, an invitation claimed against its creator's cap.
	if err := s.SaveReview(ctx, lobby.ID, []byte("review"), time.Hour); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.ClaimInvitation(ctx, 7, 1, "inl-3", time.Hour); err != nil || !ok {
		t.Fatalf("ClaimInvitation = %v, %v", ok, err)
	}

	touch(t, s, 1, 2)
	grp := finished(cur.ID, 1, 2, game.OutcomeBlack)
	grp.Flow, grp.ChatID = game.FlowGroup, -100
	if _, err := s.RecordResult(ctx, grp); err != nil {
		t.Fatal(err)
	}
	ai := &game.Game{ID: "ai", Size: 8, Status: game.StatusFinished, AILevel: 2, Outcome: game.OutcomeDraw,
		Players: [2]game.Player{{UserID: 1}, {}}}
	if _, err := s.RecordResult(ctx, ai); err != nil {
		t.Fatal(err)
	}
	if top, err := s.Top(ctx, -100, 5); err != nil || len(top) != 2 {
		t.Fatalf("Top = %+v, %v", top, err)
	}
	if _, err := s.Top(ctx, 0, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Profile(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLang(ctx, 1, "ru"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetChatLang(ctx, -100, "ru"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Enqueue(ctx, 8, game.Waiter{UserID: 1}); err != nil {
		t.Fatal(err)
	}
	if opp, err := s.Enqueue(ctx, 8, game.Waiter{UserID: 2}); err != nil || opp == nil || opp.UserID != 1 {
		t.Fatalf("Enqueue = %+v, %v; want user 1", opp, err)
	}
	if ok, err := s.Requeue(ctx, 8, game.Waiter{UserID: 1}); err != nil || !ok {
		t.Fatalf("Requeue = %v, %v", ok, err)
	}
	if _, err := s.LeaveQueue(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.FirstSeen(ctx, 5); err != nil || !ok {
		t.Fatal(ok, err)
	}
	// A game set aside: one script moves its record to the aside key and drops its bindings,
	// all in the slot of {g}.
	if key, moved, err := s.SetAside(ctx, g.ID); err != nil || !moved || key != s.AsideKey(g.ID) {
		t.Fatalf("SetAside = %q, %v, %v", key, moved, err)
	}
	if _, err := s.GameByInline(ctx, g.InlineID); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("GameByInline after SetAside: %v", err)
	}
	if _, err := s.AsideRecord(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	// A board's drawn record: one script over the record and the lease of one message.
	d := game.Drawing{Game: g.ID, Version: 2, Token: "t"}
	if st, err := s.BeginDraw(ctx, "i:inl-1", d, time.Second); err != nil || st.Verdict != game.DrawGo {
		t.Fatalf("BeginDraw = %+v, %v", st, err)
	}
	if _, err := s.EndDraw(ctx, "i:inl-1", d, game.DrawSent, "h"); err != nil {
		t.Fatal(err)
	}
	// The node runs without maxmemory: the risk names the node.
	if r, err := s.MemoryRisks(ctx); err != nil || len(r) != 1 || !strings.Contains(r[0], ": maxmemory 0: ") || strings.HasPrefix(r[0], "maxmemory") {
		t.Fatalf("MemoryRisks = %q, %v", r, err)
	}
	if keys, err := s.MemoryUsage(ctx); err != nil || len(keys) == 0 {
		t.Fatalf("MemoryUsage = %d keys, %v", len(keys), err)
	}
}

// startCluster starts redis-server as a one-node Redis Cluster of the test's own that owns
// every slot, extra added to its arguments, and returns its address once the cluster is ok.
// It skips the test when redis-server is not installed.
func startCluster(t *testing.T, extra ...string) string {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	addr := storagetest.StartServer(t, storagetest.FreePort(t), dir,
		append([]string{"--cluster-enabled", "yes", "--cluster-config-file", dir + "/nodes.conf"}, extra...)...).Addr
	admin := redis.NewClient(&redis.Options{Addr: addr})
	defer admin.Close()
	if err := admin.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", 0, 16383).Err(); err != nil {
		t.Fatal(err)
	}
	// The node declares the cluster ok once it has processed its new slots (milliseconds).
	deadline := time.Now().Add(10 * time.Second)
	for {
		info, err := admin.ClusterInfo(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(info, "cluster_state:ok") {
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("cluster not ok:\n%s", info)
		}
		<-time.After(20 * time.Millisecond)
	}
}
