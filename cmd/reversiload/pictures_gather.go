package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/render"
)

// Before a picture flood (-pictures) two users play 16×16 games in an inline post, as friends
// in a chat would: the bot edits the post to the picture of each position by its address
// (editMessageMedia with a URL, the only way an inline message takes a picture), and those
// addresses, which only the bot can make, are what the flood fetches.

// maxPictureGames bounds the games played to gather the addresses.
const maxPictureGames = 50

// gatherPictures plays inline 16×16 games until it has seen want distinct picture addresses
// of positions, and returns their paths (from PicturePath on) and the games it played.
func (d *driver) gatherPictures(ctx context.Context, want int) (paths []string, games int, err error) {
	a, b := d.srv.NewUser("PicA", "en"), d.srv.NewUser("PicB", "en")
	chat := d.srv.NewGroup("Pictures", a, b)
	seen := map[string]bool{}
	record := func(u string) bool {
		i := strings.Index(u, bot.PicturePath)
		if i >= 0 && !seen[u[i:]] {
			seen[u[i:]] = true
			paths = append(paths, u[i:])
		}
		return len(paths) >= want
	}
	for len(paths) < want {
		if games == maxPictureGames {
			return paths, games, fmt.Errorf("%d inline games made only %d picture addresses", games, len(paths))
		}
		games++
		if err := d.pictureGame(ctx, a, b, chat.ID(), record); err != nil {
			return paths, games, fmt.Errorf("inline game for pictures: %w", err)
		}
	}
	return paths, games, nil
}

// isPositionPicture tells the address of a game's position (not a starting board's).
func isPositionPicture(u string) bool {
	return strings.Contains(u, bot.PicturePath) && !strings.Contains(u, bot.PicturePath+"start/")
}

// pictureGame has a post a 16×16 invitation inline in chat and b join it, then both play
// until the game ends or record, told every new picture address of the post, says enough.
func (d *driver) pictureGame(ctx context.Context, a, b *telegramtest.Person, chat int64, record func(string) bool) error {
	qid, err := a.InlineQuery("16")
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, d.step)
	ans, err := d.srv.WaitInlineAnswer(wctx, qid)
	cancel()
	if err != nil {
		return fmt.Errorf("inline answer: %w", waitErr(ctx))
	}
	result := ""
	for _, r := range ans.Results {
		if r.Type == "photo" {
			result = r.ID
			break
		}
	}
	if result == "" {
		return errors.New("no picture among the inline results of \"16\": does the bot have a public address?")
	}
	post, err := a.ChooseInlineResult(result, chat)
	if err != nil {
		return err
	}
	if qid, err = b.PressAt(post, 0, 0); err != nil {
		return fmt.Errorf("press Join: %w", err)
	}
	if a, err := d.waitAnswer(ctx, qid); err != nil || a.ShowAlert {
		return fmt.Errorf("join: %v %s", err, firstLine(a.Text))
	}
	last := ""
	for {
		var cur telegramtest.ChatMessage
		wctx, cancel := context.WithTimeout(ctx, d.step)
		err := d.srv.WaitFor(wctx, func(v telegramtest.View) bool {
			m, ok := v.InlineMessage(post.InlineID)
			cur = m
			return ok && m.PhotoURL != last && isPositionPicture(m.PhotoURL)
		})
		cancel()
		if err != nil {
			return fmt.Errorf("next picture: %w", waitErr(ctx))
		}
		last = cur.PhotoURL
		if record(cur.PhotoURL) || over(cur) {
			return nil
		}
		mover := b
		if strings.Contains(cur.Content(), "To move: "+render.BlackDisc+" "+a.Model().FirstName) ||
			strings.Contains(cur.Content(), "To move: "+render.WhiteDisc+" "+a.Model().FirstName) {
			mover = a
		}
		move := ""
		for _, row := range cur.Buttons() {
			for _, btn := range row {
				if c, ok := callbackOf(btn); ok && c.Action == callback.ActionMove && move == "" {
					move = btn.CallbackData
				}
			}
		}
		if move == "" {
			return errors.New("a picture board without move buttons")
		}
		qid, err := mover.PressInlineData(post.InlineID, move)
		if err != nil {
			return fmt.Errorf("press: %w", err)
		}
		if a, err := d.waitAnswer(ctx, qid); err != nil || a.ShowAlert {
			return fmt.Errorf("move: %v %s", err, firstLine(a.Text))
		}
	}
}
