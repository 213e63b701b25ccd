package present

import (
	"strings"
	"time"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
)

// ReviewMistakes is how many of its costliest moves a review lists for each side.
const ReviewMistakes = 3

// ReplayCaption is the caption of a finished game's replay: both players and the final score.
func ReplayCaption(g *game.Game, eg *engine.Game, lang string) string {
	pos := eg.Position()
	return tr(lang, i18n.KeyReplayCaption, PlayerName(g, 0, lang), pos.Count(engine.Black),
		pos.Count(engine.White), PlayerName(g, 1, lang))
}

// ReviewStarted tells whoever asked for a review that it is under way and how long it will
// take: est rounded up to 5 seconds under a minute and a half, to minutes from there.
func ReviewStarted(lang string, est time.Duration) string {
	if est < 90*time.Second {
		s := int((est + 5*time.Second - 1) / (5 * time.Second) * 5)
		return i18n.Plural(lang, i18n.KeyReviewStarted, max(5, s))
	}
	return i18n.Plural(lang, i18n.KeyReviewLong, int((est+time.Minute-1)/time.Minute))
}

// ReviewCaption is the text under the chart of a review: the final score, the costliest
// moves of each side (ReviewMistakes at most, with what was better and what each cost), the
// turning point and how the moves were judged. Scores are shown in whole discs.
func ReviewCaption(g *game.Game, eg *engine.Game, gr ai.GameReview, lang string) string {
	pos := eg.Position()
	lines := []string{tr(lang, i18n.KeyReviewTitle, PlayerName(g, 0, lang), pos.Count(engine.Black),
		pos.Count(engine.White), PlayerName(g, 1, lang))}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		who := disc(c) + " " + PlayerName(g, int(c), lang)
		ms := gr.Mistakes(c, ReviewMistakes)
		if len(ms) == 0 {
			lines = append(lines, tr(lang, i18n.KeyReviewClean, who))
			continue
		}
		lines = append(lines, tr(lang, i18n.KeyReviewMistakes, who))
		for _, m := range ms {
			lines = append(lines, tr(lang, i18n.KeyReviewMistake, m.Ply, m.Played, m.Best,
				i18n.Plural(lang, i18n.KeyReviewDiscs, min(discsLost(m.Loss), g.Size*g.Size))))
		}
	}
	if k := gr.Turning; k >= 0 && k < len(gr.Moves) {
		m := gr.Moves[k]
		lines = append(lines, tr(lang, i18n.KeyReviewTurning, m.Ply, disc(m.Mover), m.Played))
	}
	lines = append(lines, judged(gr, lang))
	return strings.Join(lines, "\n")
}

// ReviewPlot is the chart of a review, labelled in lang: the evaluation over the game, the
// costliest moves of both sides marked, and the turning point.
func ReviewPlot(gr ai.GameReview, lang string) render.Plot {
	p := render.Plot{Values: gr.Eval, Exact: gr.EvalExact, Turning: -1,
		Labels: render.PlotLabels{Title: tr(lang, i18n.KeyReviewPlotEval), Black: tr(lang, i18n.KeyReviewPlotBlack),
			White: tr(lang, i18n.KeyReviewPlotWhite), Move: tr(lang, i18n.KeyReviewPlotMove),
			Mistakes: tr(lang, i18n.KeyReviewPlotMistakes), Turning: tr(lang, i18n.KeyReviewPlotTurning),
			Exact: tr(lang, i18n.KeyReviewPlotExact)}}
	if gr.Turning >= 0 {
		p.Turning = gr.Turning + 1 // the chart counts plies from 1
	}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		for _, m := range gr.Mistakes(c, ReviewMistakes) {
			for k := range gr.Moves {
				if gr.Moves[k].Ply == m.Ply {
					p.Marks = append(p.Marks, k+1)
				}
			}
		}
	}
	return p
}

// judged says how the review valued the moves: exactly from which move on, by a search of
// what depth before it.
func judged(gr ai.GameReview, lang string) string {
	firstExact, depth := 0, 0
	for _, m := range gr.Moves {
		if m.Exact && firstExact == 0 {
			firstExact = m.Ply
		}
		if !m.Exact {
			depth = max(depth, m.Depth)
		}
	}
	switch {
	case depth == 0:
		return tr(lang, i18n.KeyReviewAllExact)
	case firstExact == 0:
		return tr(lang, i18n.KeyReviewSearched, depth)
	}
	return tr(lang, i18n.KeyReviewExact, firstExact, depth)
}

// discsLost is a loss in hundredths of a disc as whole discs, rounded to the nearest and at
// least 1 (a listed mistake costs something).
func discsLost(loss int) int { return max(1, (loss+50)/100) }

// disc is the symbol of a colour's discs.
func disc(c engine.Color) string {
	if c == engine.White {
		return "⚪"
	}
	return "⚫"
}
