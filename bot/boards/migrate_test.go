package boards

import (
	"context"
	"testing"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// movedAPI is a Bot API client whose sends land in chat to, as botapi.Client's do once the
// group they name became that supergroup.
type movedAPI struct {
	API
	to int64
}

func (a movedAPI) SendMessage(_ context.Context, p *tgbot.SendMessageParams) (*models.Message, error) {
	return &models.Message{ID: 7, Chat: models.Chat{ID: a.to, Type: models.ChatTypeSupergroup}, Text: p.Text}, nil
}

// A board sent to a group that became a supergroup is recorded where it landed.
func TestPostRecordsTheChatItLandedIn(t *testing.T) {
	var got []game.MessageRef
	e := New(Options{API: movedAPI{to: -1009}, Reader: newReader(),
		Content: func(*game.Game, *engine.Game, game.MessageRef, game.Style, engine.Square) (Content, error) {
			return Content{Text: "board"}, nil
		},
		StyleOf: func(context.Context, *game.Game, game.MessageRef) game.Style { return game.StyleButtons },
		AddBoard: func(_ context.Context, _ string, ref game.MessageRef) (*game.Game, error) {
			got = append(got, ref)
			return &game.Game{}, nil
		}})
	g := &game.Game{ID: "G1", Size: 8, Flow: game.FlowGroup, Status: game.StatusPlaying, ChatID: -42}
	if err := e.Post(context.Background(), g, -42); err != nil {
		t.Fatal(err)
	}
	if want := (game.MessageRef{ChatID: -1009, MessageID: 7}); len(got) != 1 || got[0] != want {
		t.Fatalf("AddBoard got %v, want %v", got, want)
	}
}
