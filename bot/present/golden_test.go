package present_test

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/enginetest"
	"github.com/reversibot/reversi/game"
)

// picDir, when set, is a directory the tests write the pictures of some boards to, to look at.
var picDir = flag.String("pics", "", "write some boards' pictures to this directory")

// dump writes c as readable text: the text, one line per keyboard row (each button as its
// label and, in brackets, its callback data or URL), and the picture's format and size. A
// picture is described by what it decodes to, so the golden file does not pin its bytes.
func dump(t *testing.T, c present.Content) string {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("text:\n")
	sb.WriteString(c.Text)
	if !strings.HasSuffix(c.Text, "\n") {
		sb.WriteByte('\n')
	}
	if c.Grid != "" {
		sb.WriteString("grid:\n")
		sb.WriteString(c.Grid)
	}
	sb.WriteString("keyboard:")
	if c.Keyboard == nil {
		sb.WriteString(" none\n")
	} else {
		sb.WriteByte('\n')
		for _, row := range c.Keyboard.InlineKeyboard {
			sb.WriteString(dumpRow(row))
			sb.WriteByte('\n')
		}
	}
	sb.WriteString("photo:")
	if c.Photo == nil {
		sb.WriteString(" none\n")
	} else {
		img, err := png.Decode(bytes.NewReader(c.Photo))
		if err != nil {
			t.Fatalf("photo is no PNG: %v", err)
		}
		r := img.Bounds()
		fmt.Fprintf(&sb, " PNG %dx%d\n", r.Dx(), r.Dy())
	}
	if len(c.Entities) > 0 {
		sb.WriteString("entities:\n")
		for _, e := range c.Entities {
			sb.WriteString(dumpEntity(t, c.Text, e))
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// dumpEntity writes an entity as its type, the user it mentions, its offset and length in
// UTF-16 units and, quoted, the part of text it covers (which it must cover exactly).
func dumpEntity(t *testing.T, text string, e models.MessageEntity) string {
	t.Helper()
	units := utf16.Encode([]rune(text))
	if e.Offset < 0 || e.Length <= 0 || e.Offset+e.Length > len(units) {
		t.Fatalf("entity %+v outside the text of %d UTF-16 units", e, len(units))
	}
	covered := string(utf16.Decode(units[e.Offset : e.Offset+e.Length]))
	user := ""
	if e.User != nil {
		user = fmt.Sprintf(" user %d (%s)", e.User.ID, e.User.FirstName)
	}
	return fmt.Sprintf("  %s%s at %d+%d %q", e.Type, user, e.Offset, e.Length, covered)
}

func dumpRow(row []models.InlineKeyboardButton) string {
	cells := make([]string, len(row))
	for i, b := range row {
		switch {
		case b.URL != "":
			cells[i] = b.Text + " [url " + b.URL + "]"
		case b.SwitchInlineQueryChosenChat != nil:
			q := b.SwitchInlineQueryChosenChat
			cells[i] = fmt.Sprintf("%s [pick a chat: query %q users %v groups %v]", b.Text, q.Query, q.AllowUserChats, q.AllowGroupChats)
		default:
			cells[i] = b.Text + " [" + b.CallbackData + "]"
		}
	}
	return strings.Join(cells, " | ")
}

// golden compares got with testdata/name.golden, or writes the file under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	enginetest.Golden(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

// play returns n moves of a game on a size×size board (fewer when it ends first), chosen
// deterministically among the legal ones, passes left out as the store keeps them.
func play(t *testing.T, size, n int) []byte {
	t.Helper()
	eg, err := engine.NewGame(size)
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	for len(out) < n && !eg.Position().GameOver() {
		if eg.Position().MustPass() {
			if _, err := eg.Play(engine.Pass); err != nil {
				t.Fatal(err)
			}
			continue
		}
		legal := eg.Position().LegalMoves()
		sq := legal[(len(out)*7)%len(legal)]
		if _, err := eg.Play(sq); err != nil {
			t.Fatal(err)
		}
		out = append(out, byte(sq))
	}
	return out
}

// people is a game between Alice (black, private chat 1) and Bob (white, chat 2) hosted in
// group -100, its texts in lang.
func people(size int, moves []byte, lang string) *game.Game {
	return &game.Game{ID: "g1", Size: size, Flow: game.FlowGroup, Status: game.StatusPlaying,
		Players: [2]game.Player{{UserID: 1, Name: "Alice", ChatID: 1, Lang: lang}, {UserID: 2, Name: "Bob", ChatID: 2, Lang: lang}},
		Moves:   moves, ChatID: -100, Lang: lang, CreatorColor: -1}
}

// vsAI is a game of Alice (black, private chat 1) against the AI at level.
func vsAI(size, level int, moves []byte, lang string) *game.Game {
	return &game.Game{ID: "a1", Size: size, Flow: game.FlowAI, Status: game.StatusPlaying,
		Players: [2]game.Player{{UserID: 1, Name: "Alice", ChatID: 1, Lang: lang}, {}},
		AILevel: level, Moves: moves, ChatID: 1, Lang: lang}
}

var (
	group   = game.MessageRef{ChatID: -100, MessageID: 7}
	private = game.MessageRef{ChatID: 1, MessageID: 8}
	inline  = game.MessageRef{InlineID: "AAAAinline"}
)

func TestGoldenBoards(t *testing.T) {
	for _, lang := range i18n.Langs() {
		eight := play(t, 8, 9)
		full := play(t, 8, 200)
		sixteen := play(t, 16, 30)
		resigned := people(8, eight, lang)
		resigned.Status, resigned.Outcome, resigned.Reason = game.StatusFinished, game.OutcomeWhite, game.EndResign
		// Namesakes: the name of the player to move (white, Боб) is also the start of the
		// other's, and the other's takes two UTF-16 units for its fox.
		namesakes := people(8, eight, lang)
		namesakes.Players[0].Name, namesakes.Players[1].Name = "Боб 🦊", "Боб"
		foxToMove := people(8, play(t, 8, 10), lang)
		foxToMove.Players[0].Name, foxToMove.Players[1].Name = "Боб 🦊", "Боб"
		foxToMove.Flow, foxToMove.ChatID, foxToMove.InlineID = game.FlowInline, 0, inline.InlineID
		finished := vsAI(8, 3, full, lang)
		finished.Status, finished.Reason = game.StatusFinished, game.EndNormal
		cases := []struct {
			name  string
			g     *game.Game
			ref   game.MessageRef
			page  int
			style game.Style
		}{
			{"board8_buttons_group", people(8, eight, lang), group, 0, game.StyleButtons},
			{"board8_buttons_ai", vsAI(8, 2, eight, lang), private, 0, game.StyleButtons},
			{"board8_image_private", people(8, eight, lang), private, 0, game.StyleImage},
			{"board8_image_inline", people(8, eight, lang), inline, 0, game.StyleImage},
			{"board16_picker", vsAI(16, 6, sixteen, lang), private, 0, game.StyleButtons},
			{"board16_picker_page_out_of_range", vsAI(16, 6, sixteen, lang), private, 5, game.StyleButtons},
			{"board16_inline", people(16, sixteen, lang), inline, 0, game.StyleButtons},
			{"board8_resigned", resigned, group, 0, game.StyleButtons},
			{"board8_mention_namesakes_group", namesakes, group, 0, game.StyleButtons},
			{"board8_mention_fox_inline", foxToMove, inline, 0, game.StyleButtons},
			{"board8_mention_none_private", namesakes, private, 0, game.StyleButtons},
			{"board10_photo_group", people(10, play(t, 10, 6), lang), group, 0, game.StyleButtons},
			{"board8_finished", finished, private, 0, game.StyleButtons},
			{"board8_finished_image", finished, private, 0, game.StyleImage},
		}
		for _, c := range cases {
			t.Run(c.name+"_"+lang, func(t *testing.T) {
				got, err := present.Board(c.g, c.ref, c.page, c.style)
				if err != nil {
					t.Fatal(err)
				}
				golden(t, c.name+"_"+lang, dump(t, got))
			})
		}
	}
}

// TestGoldenEndings draws the end of games as each viewer sees it: an aborted game, a rated
// one with its rating change, the rematch offer in each of its states (on a board both players
// see and on each player's own), the AI game's buttons for what comes next, the AI moving
// twice while the player passes, and the question of Resign.
func TestGoldenEndings(t *testing.T) {
	for _, lang := range i18n.Langs() {
		full := play(t, 8, 200)
		eight := play(t, 8, 9)
		over := func(g *game.Game, o game.Outcome, why game.EndReason) *game.Game {
			g.Status, g.Outcome, g.Reason = game.StatusFinished, o, why
			return g
		}
		rated := func(g *game.Game, winner int) *game.Game { // winner: 0 black, 1 white
			g.Rating = game.RatingChange{Rated: true, Before: [2]int{1200, 1200}, After: [2]int{1216, 1184}}
			if winner == 1 {
				g.Rating.After = [2]int{1184, 1216}
			}
			return g
		}
		invite := func(moves []byte) *game.Game {
			g := people(8, moves, lang)
			g.Flow, g.ChatID = game.FlowInvite, 0
			return g
		}
		offer := func(g *game.Game, st game.RematchState, by int64) *game.Game {
			g.Rematch, g.RematchBy = st, by
			return g
		}
		aborted := over(people(8, eight[:1], lang), game.OutcomeNone, game.EndAbandoned)
		abortedAI := over(vsAI(8, 2, nil, lang), game.OutcomeNone, game.EndAbandoned)
		won := over(vsAI(8, 1, full, lang), game.OutcomeNone, game.EndNormal)
		won.Players[0], won.Players[1] = won.Players[1], won.Players[0] // Alice white: she wins
		inl := over(people(8, eight, lang), game.OutcomeWhite, game.EndResign)
		inl.Flow, inl.ChatID, inl.InlineID = game.FlowInline, 0, inline.InlineID
		cases := []struct {
			name string
			g    *game.Game
			ref  game.MessageRef
		}{
			{"end_aborted_group", aborted, group},
			{"end_aborted_ai", abortedAI, private},
			{"end_ai_won", won, private},
			{"end_rated_group", rated(over(people(8, full, lang), game.OutcomeNone, game.EndNormal), 1), group},
			{"end_rated_private", rated(over(invite(full), game.OutcomeNone, game.EndNormal), 1), private},
			{"end_offered_group", offer(rated(over(people(8, eight, lang), game.OutcomeWhite, game.EndResign), 1), game.RematchOffered, 1), group},
			{"end_offered_by_me", offer(over(invite(eight), game.OutcomeWhite, game.EndResign), game.RematchOffered, 1), private},
			{"end_offered_to_me", offer(over(invite(eight), game.OutcomeWhite, game.EndResign), game.RematchOffered, 2), private},
			{"end_accepted", offer(over(people(8, eight, lang), game.OutcomeWhite, game.EndResign), game.RematchAccepted, 2), group},
			{"end_declined", offer(over(people(8, eight, lang), game.OutcomeWhite, game.EndResign), game.RematchDeclined, 1), group},
			{"end_withdrawn", offer(over(people(8, eight, lang), game.OutcomeWhite, game.EndResign), game.RematchWithdrawn, 1), group},
			{"end_expired", offer(over(people(8, eight, lang), game.OutcomeWhite, game.EndResign), game.RematchExpired, 2), group},
			{"end_inline", offer(inl, game.RematchOffered, 2), inline},
			{"end_timeout_rated", rated(over(people(8, eight, lang), game.OutcomeBlack, game.EndTimeout), 0), group},
		}
		for _, c := range cases {
			t.Run(c.name+"_"+lang, func(t *testing.T) {
				got, err := present.Board(c.g, c.ref, 0, game.StyleButtons)
				if err != nil {
					t.Fatal(err)
				}
				golden(t, c.name+"_"+lang, dump(t, got))
			})
		}
		t.Run("pass_ai_twice_"+lang, func(t *testing.T) {
			g := vsAI(6, 1, passAndTwice(t), lang)
			got, err := present.Board(g, private, 0, game.StyleButtons)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "pass_ai_twice_"+lang, dump(t, got))
			pic, err := present.Board(g, private, 0, game.StyleImage)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "pass_ai_twice_image_"+lang, dump(t, pic))
			if *picDir != "" {
				if err := os.WriteFile(filepath.Join(*picDir, "pass_ai_twice_"+lang+".png"), pic.Photo, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
		for _, c := range []struct {
			name string
			g    *game.Game
			ref  game.MessageRef
			ask  int
		}{
			{"resign_ask_ai", vsAI(8, 2, eight, lang), private, 0},
			{"resign_ask_group", people(8, eight, lang), group, 1},
			{"resign_ask_picker", vsAI(16, 6, play(t, 16, 30), lang), private, 0},
		} {
			t.Run(c.name+"_"+lang, func(t *testing.T) {
				got, err := present.ResignPrompt(c.g, c.ref, 0, game.StyleButtons, c.ask)
				if err != nil {
					t.Fatal(err)
				}
				golden(t, c.name+"_"+lang, dump(t, got))
			})
		}
	}
}

// passAndTwice returns the moves of a 6×6 game in which, at its end, black (Alice) had to pass
// while white (the AI) placed two discs in a row: the first such point of a deterministic game.
func passAndTwice(t *testing.T) []byte {
	t.Helper()
	for seed := 0; seed < 400; seed++ {
		eg, err := engine.NewGame(6)
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		for !eg.Position().GameOver() {
			p := eg.Position()
			if p.MustPass() {
				if p.Side() == engine.Black && len(out) > 0 {
					// Black passes: white moves, then it is black's turn again (or the end).
					if _, err := eg.Play(engine.Pass); err != nil {
						t.Fatal(err)
					}
					w := eg.Position().LegalMoves()
					if len(w) == 0 {
						break
					}
					if _, err := eg.Play(w[0]); err != nil {
						t.Fatal(err)
					}
					out = append(out, byte(w[0]))
					if eg.Position().Side() == engine.Black && !eg.Position().MustPass() {
						return out
					}
					continue
				}
				if _, err := eg.Play(engine.Pass); err != nil {
					t.Fatal(err)
				}
				continue
			}
			legal := p.LegalMoves()
			sq := legal[(len(out)*seed+seed)%len(legal)]
			if _, err := eg.Play(sq); err != nil {
				t.Fatal(err)
			}
			out = append(out, byte(sq))
		}
	}
	t.Fatal("no game found where black passes between two white moves")
	return nil
}

func TestGoldenLobbies(t *testing.T) {
	for _, lang := range i18n.Langs() {
		lobby := func(flow game.Flow, color int8) *game.Game {
			return &game.Game{ID: "L1", Size: 10, Flow: flow, Status: game.StatusLobby, CreatorColor: color,
				Players: [2]game.Player{{UserID: 1, Name: "Alice", ChatID: 1}}, ChatID: -100, Lang: lang}
		}
		for _, c := range []struct {
			name string
			g    *game.Game
		}{
			{"lobby_group_random", lobby(game.FlowGroup, -1)},
			{"lobby_group_white", lobby(game.FlowGroup, 1)},
			{"lobby_invite", lobby(game.FlowInvite, -1)},
			{"lobby_inline", lobby(game.FlowInline, -1)},
			{"lobby_inline_white", lobby(game.FlowInline, 1)},
		} {
			t.Run(c.name+"_"+lang, func(t *testing.T) {
				golden(t, c.name+"_"+lang, dump(t, present.Lobby(c.g, lang, "ReversiBot")))
			})
		}
		for name, color := range map[string]game.Choice{"random": game.ChooseRandom, "black": game.ChooseBlack} {
			title, desc := present.InlineResult(lang, 12, color)
			text := present.InlineText(lang, "Alice", 12, color)
			golden(t, "inline_result_"+name+"_"+lang, dump(t, present.Content{Text: title + "\n" + desc + "\n" + text}))
		}
		golden(t, "moved_board_"+lang, dump(t, present.Moved(lang, false)))
		golden(t, "moved_lobby_"+lang, dump(t, present.Moved(lang, true)))
	}
}

func TestGoldenMenus(t *testing.T) {
	for _, lang := range i18n.Langs() {
		for _, c := range []struct {
			name string
			m    present.Menu
			s    present.MenuState
		}{
			{"menu_main", present.MenuMain, present.MenuState{Name: "Alice"}},
			{"menu_size", present.MenuSize, present.MenuState{}},
			{"menu_level", present.MenuLevel, present.MenuState{Size: 10}},
			{"menu_color", present.MenuColor, present.MenuState{Size: 10, Level: 4}},
			{"menu_lang", present.MenuLang, present.MenuState{}},
			{"menu_lang_unknown", present.MenuLang, present.MenuState{Unknown: true}},
			{"menu_find_size", present.MenuFindSize, present.MenuState{}},
			{"menu_friend", present.MenuFriendPick, present.MenuState{Bot: "ReversiBot"}},
			{"menu_style", present.MenuStyle, present.MenuState{Style: game.StyleImage}},
			{"menu_style_back", present.MenuStyle, present.MenuState{Style: game.StyleButtons, Back: true}},
		} {
			t.Run(c.name+"_"+lang, func(t *testing.T) {
				if !c.m.Drawn() {
					t.Fatalf("%v is not Drawn", c.m)
				}
				golden(t, c.name+"_"+lang, dump(t, present.DrawMenu(c.m, lang, c.s)))
			})
		}
	}
}

func TestGoldenReminders(t *testing.T) {
	for _, lang := range i18n.Langs() {
		first := people(8, nil, lang)
		first.Players[0].Name = "Боб 🦊" // black, to move first
		later := people(8, play(t, 8, 10), lang)
		later.Players[0].Name, later.Players[1].Name = "Боб 🦊", "Боб" // black to move again
		for _, c := range []struct {
			name string
			g    *game.Game
		}{
			{"reminder_first", first},
			{"reminder_namesakes", later},
		} {
			t.Run(c.name+"_"+lang, func(t *testing.T) {
				eg, err := present.Replay(c.g)
				if err != nil {
					t.Fatal(err)
				}
				got, ok := present.Reminder(c.g, eg, lang)
				if !ok {
					t.Fatal("no reminder")
				}
				golden(t, c.name+"_"+lang, dump(t, got))
			})
		}
	}
}

// TestNoReminder: nobody is reminded in an AI game or a finished one.
func TestNoReminder(t *testing.T) {
	ai := vsAI(8, 2, nil, "en")
	over := people(8, play(t, 8, 9), "en")
	over.Status, over.Reason = game.StatusFinished, game.EndResign
	for _, g := range []*game.Game{ai, over} {
		eg, err := present.Replay(g)
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := present.Reminder(g, eg, "en"); ok {
			t.Errorf("reminder %q in game %+v", c.Text, g)
		}
	}
}

// TestGoldenHint: a board with a hint marks it (💡 on the keyboard, a ring on a picture) and
// says where it lies; a hint the player to move cannot play is shown nowhere.
func TestGoldenHint(t *testing.T) {
	for _, lang := range i18n.Langs() {
		for _, c := range []struct {
			name string
			size int
		}{{"board8_hint_ai", 8}, {"board16_hint_ai", 16}} {
			t.Run(c.name+"_"+lang, func(t *testing.T) {
				g := vsAI(c.size, 2, play(t, c.size, 8), lang) // Alice (black) to move
				eg, err := present.Replay(g)
				if err != nil {
					t.Fatal(err)
				}
				legal := eg.Position().LegalMoves()
				hint := legal[len(legal)-1]
				got, err := present.BoardHinted(g, eg, private, 0, game.StyleButtons, hint)
				if err != nil {
					t.Fatal(err)
				}
				golden(t, c.name+"_"+lang, dump(t, got))
				// Not a legal move now (an occupied centre square): no hint anywhere.
				plain, _ := present.BoardOf(g, eg, private, 0, game.StyleButtons)
				bad, err := present.BoardHinted(g, eg, private, 0, game.StyleButtons, engine.SquareAt(c.size/2, c.size/2))
				if err != nil || dump(t, bad) != dump(t, plain) {
					t.Errorf("a hint that cannot be played changed the board:\n%s", dump(t, bad))
				}
			})
		}
	}
}

// TestFinishedCaptionFits: the text under the picture of a finished 16×16 game, with its
// rating change and a rematch offer, stays within Telegram's caption limit (1024 characters):
// the record is numbered while it is short, compact when longer, and left out when even that
// does not fit.
func TestFinishedCaptionFits(t *testing.T) {
	for _, lang := range i18n.Langs() {
		for _, n := range []int{60, 150, 400} {
			g := people(16, play(t, 16, n), lang)
			g.Status, g.Reason = game.StatusFinished, game.EndResign
			g.Outcome = game.OutcomeWhite
			g.Rating = game.RatingChange{Rated: true, Before: [2]int{1200, 1200}, After: [2]int{1184, 1216}}
			g.Rematch, g.RematchBy = game.RematchOffered, 2
			c, err := present.Board(g, group, 0, game.StyleButtons)
			if err != nil {
				t.Fatal(err)
			}
			if c.Photo == nil {
				t.Fatalf("a 16×16 board is no picture")
			}
			if r := []rune(c.Text); len(r) > 1024 {
				t.Errorf("%s, %d moves: caption of %d characters:\n%s", lang, n, len(r), c.Text)
			}
			if n == 60 && !strings.Contains(c.Text, "1. ") {
				t.Errorf("%s: a short 16×16 game does not number its moves:\n%s", lang, c.Text)
			}
		}
	}
}

func TestGoldenSearches(t *testing.T) {
	for _, lang := range i18n.Langs() {
		for _, c := range []struct {
			name string
			c    present.Content
		}{
			{"search_starting", present.SearchStarting(lang, 10)},
			{"search_waiting", present.Searching(lang, 10, 10*time.Minute)},
			{"search_found_white", present.SearchFound(lang, "Bob", 1216, 1)},
			{"search_found_black", present.SearchFound(lang, "Alice", 1184, 0)},
			{"search_cancelled", present.SearchCancelled(lang)},
			{"search_over", present.SearchOver(lang)},
			{"search_left", present.SearchLeft(lang)},
			{"search_expired", present.SearchExpired(lang, 12)},
		} {
			t.Run(c.name+"_"+lang, func(t *testing.T) { golden(t, c.name+"_"+lang, dump(t, c.c)) })
		}
	}
}
