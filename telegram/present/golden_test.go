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

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/telegram/i18n"
	"github.com/reversibot/reversi/telegram/present"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

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
	return sb.String()
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

// golden compares got with testdata/name.golden, or rewrites the file under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s\n(run go test -update if the change is intended)", path, i+1, g, w)
			}
		}
	}
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
