package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// gameArgs are the arguments of /ai, /new and /find: a board size, an AI level and a
// colour, the numbers with the words they were read from.
type gameArgs struct {
	size, level         int // 0 when not given
	color               game.Choice
	sizeWord, levelWord string
}

// badArg is an argument a command cannot take: the word as typed and the text (an arg.* key)
// that says what is wrong with it.
type badArg struct {
	word string
	why  i18n.Key
}

// parseGameArgs reads "[size] [level] [colour]" in any order ("10 3 white", "black 16",
// "12x12 6"): a number from 1 to game.MaxLevel is the level unless one was given, another
// number the size (a number written as a size, "10x10", always is), and validSize tells the
// sizes the bot plays. It returns the first word it cannot take, with why: a number that can
// only be a level and is none (/ai 8 9), a size that is none (/ai 7, /find 99), or a word that
// is no colour either (purple).
func parseGameArgs(args []string, validSize func(int) bool) (gameArgs, *badArg) {
	out := gameArgs{color: game.ChooseRandom}
	for _, a := range args {
		if n, sized, ok := number(a); ok {
			switch {
			case sized && out.size == 0:
				out.size, out.sizeWord = n, a
			case sized:
				return out, &badArg{word: a, why: i18n.KeyArgUnknown}
			case n >= 1 && n <= game.MaxLevel && out.level == 0:
				out.level, out.levelWord = n, a
			case out.size == 0 && (n > game.MaxLevel || out.level != 0):
				out.size, out.sizeWord = n, a
			case out.size != 0 && out.level == 0:
				return out, &badArg{word: a, why: i18n.KeyArgBadLevel}
			default:
				return out, &badArg{word: a, why: i18n.KeyArgUnknown}
			}
			continue
		}
		c, ok := game.ParseChoice(a)
		if !ok {
			return out, &badArg{word: a, why: i18n.KeyArgUnknown}
		}
		out.color = c
	}
	if out.sizeWord != "" && !validSize(out.size) {
		return out, &badArg{word: out.sizeWord, why: i18n.KeyArgBadSize}
	}
	return out, nil
}

// number reads a number argument: "8", or a size written as one, "10x", "10x10" or "10×10"
// (sized). A size whose two sides differ ("10x12") is read as a number that no board has.
func number(word string) (n int, sized, ok bool) {
	w := strings.ToLower(word)
	i, sep := strings.IndexAny(w, "x×"), 1
	if i < 0 {
		n, err := strconv.Atoi(w)
		return n, false, err == nil
	}
	if strings.HasPrefix(w[i:], "×") {
		sep = len("×")
	}
	n, err := strconv.Atoi(w[:i])
	if err != nil || i == 0 {
		return 0, false, false
	}
	if rest := w[i+sep:]; rest != "" {
		if m, err := strconv.Atoi(rest); err != nil {
			return 0, false, false
		} else if m != n {
			return -1, true, true
		}
	}
	return n, true, true
}

// replyUsage answers a command that cannot take its arguments: what is wrong with bad (nil
// when no argument is at fault, as when one is missing), quoting at most a few words of it,
// then usage, how the command is written; extra are the further arguments of bad's text.
func (cs *commands) replyUsage(ctx context.Context, m *msgCtx, usage i18n.Key, bad *badArg, extra ...any) error {
	c := present.Usage(m.lang, usage, "")
	if bad != nil {
		c = present.Usage(m.lang, usage, bad.why, append([]any{quote(bad.word)}, extra...)...)
	}
	return cs.reply(ctx, m, c.Text)
}

// joinRefusal is the text for a Join of game id by user that failed with err, when the
// refusal is about the user's own game: the creator of an open lobby, or one of the players
// of a game under way (which the store reports as taken by someone else, since it keeps no
// creator once the game starts). It is "" for any other error.
func joinRefusal(ctx context.Context, svc *game.Service, id string, user int64, err error) i18n.Key {
	switch {
	case errors.Is(err, game.ErrOwnLobby):
		return i18n.KeyErrOwnLobby
	case errors.Is(err, game.ErrLobbyTaken):
		g, lerr := svc.Lookup(ctx, id)
		if lerr == nil && (g.Players[0].UserID == user || g.Players[1].UserID == user) {
			return i18n.KeyErrInYourGame
		}
	}
	return ""
}
