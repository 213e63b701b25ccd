package ai

import (
	"context"
	"errors"
	"math/bits"
	"sort"

	"github.com/reversibot/reversi/engine"
)

// BookGenConfig sets how GenerateBook builds a book.
type BookGenConfig struct {
	// Plies is the depth of the book's tree: positions up to this many plies from the start
	// are searched, those before it expanded.
	Plies int
	// Depth is the fixed depth (plies) of the search of every position.
	Depth int
	// Margin (hundredths of a disc): the moves the search finds within Margin of the best are
	// stored and expanded.
	Margin int
	// Full is the number of first plies at which every legal move is expanded, not only the
	// stored ones, so that the book also answers an opponent who leaves its best lines early.
	Full int
}

// DefaultBookGenConfig is the configuration of the embedded book (BOOK.md).
var DefaultBookGenConfig = BookGenConfig{Plies: 10, Depth: 12, Margin: 60, Full: 3}

// GenerateBook builds an 8×8 opening book by the package's own search: from the start, level
// by level of plies, every position (canonical under the symmetries) is searched to
// cfg.Depth with the root's margin set to cfg.Margin, which gives the exact search value of
// every move within the margin of the best; those moves are stored and, before cfg.Plies,
// played to give the next level's positions. A position whose side to move must pass ends its
// branch. The values are then backed up by negamax from the last level to the first: a move
// whose position after it is in the book takes minus that position's best value.
//
// The search is deterministic (fixed depth, no clock, fresh tables per position), so the book
// is a function of cfg alone. cache, when not nil, holds search results (the raw values,
// before the backing up) from an earlier run with the same Depth and Margin; positions found
// there are not searched again, and every new result is added to it, so a run stopped by ctx
// can be resumed by passing the same cache. progress, when not nil, is called after every
// new search with the number of positions searched so far in this run and of the current
// level's positions left.
func GenerateBook(ctx context.Context, cfg BookGenConfig, cache *Book, progress func(searched, ply, left int)) (*Book, error) {
	if cfg.Plies < 0 || cfg.Depth < 1 || cfg.Margin < 0 {
		return nil, errors.New("ai: bad book configuration")
	}
	if cache == nil {
		cache = &Book{}
	}
	if cache.entries == nil {
		cache.entries = map[bookKey][]bookMove{}
		cache.Depth, cache.Margin = cfg.Depth, cfg.Margin
	}
	if cache.Depth != cfg.Depth || cache.Margin != cfg.Margin {
		return nil, errors.New("ai: book cache made with another depth or margin")
	}
	tables, err := tablesForEval(EvalDefault)
	if err != nil {
		return nil, err
	}
	sp, so, _ := engine.MustStart(8).Bitboards8()
	k0, _ := canonical8(sp, so)
	level := []bookKey{k0}
	var levels [][]bookKey
	seen := map[bookKey]bool{k0: true}
	searched := 0
	for ply := 0; ply <= cfg.Plies && len(level) > 0; ply++ {
		levels = append(levels, level)
		var next []bookKey
		for i, k := range level {
			ms, ok := cache.entries[k]
			if !ok {
				if ms, err = searchBookPosition(ctx, cfg, tables[8], k); err != nil {
					return nil, err
				}
				cache.entries[k] = ms
				searched++
				if progress != nil {
					progress(searched, ply, len(level)-i-1)
				}
			}
			if ply == cfg.Plies {
				continue
			}
			expand := ms
			if ply < cfg.Full {
				expand = nil
				for mv := moves8(k[0], k[1]); mv != 0; mv &= mv - 1 {
					expand = append(expand, bookMove{sq: uint8(bits.TrailingZeros64(mv))})
				}
			}
			for _, m := range expand {
				f := flips8(k[0], k[1], int(m.sq))
				np, no := k[1]&^f, k[0]|f|1<<m.sq
				if moves8(np, no) == 0 {
					continue
				}
				ck, _ := canonical8(np, no)
				if !seen[ck] {
					seen[ck] = true
					next = append(next, ck)
				}
			}
		}
		level = next
	}
	book := &Book{Plies: cfg.Plies, Depth: cfg.Depth, Margin: cfg.Margin, Full: cfg.Full, entries: map[bookKey][]bookMove{}}
	for ply := len(levels) - 1; ply >= 0; ply-- {
		for _, k := range levels[ply] {
			raw := cache.entries[k]
			ms := make([]bookMove, len(raw))
			for i, m := range raw {
				ms[i] = m
				f := flips8(k[0], k[1], int(m.sq))
				ck, _ := canonical8(k[1]&^f, k[0]|f|1<<m.sq)
				if child, ok := book.entries[ck]; ok && len(child) > 0 {
					ms[i].value = -child[0].value
				}
			}
			sortBookMoves(ms)
			book.entries[k] = ms
		}
	}
	return book, nil
}

// sortBookMoves orders moves best first, equal values by square.
func sortBookMoves(ms []bookMove) {
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].value != ms[j].value {
			return ms[i].value > ms[j].value
		}
		return ms[i].sq < ms[j].sq
	})
}

// searchBookPosition searches the position k to cfg.Depth and returns its moves within
// cfg.Margin of the best with their exact search values, best first.
func searchBookPosition(ctx context.Context, cfg BookGenConfig, ev *evalTable, k bookKey) ([]bookMove, error) {
	c := &config{ctx: ctx, depth: cfg.Depth, jump: defaultJump(8), margin: max(cfg.Margin, 1), tableBits: 18, mustScore: true}
	c.start = c.now(0)
	s := newSearcher8(c, ev)
	s.run(k[0], k[1])
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(s.lastRoot) == 0 {
		return nil, errors.New("ai: book search found no move")
	}
	best := -infScore
	for _, m := range s.lastRoot {
		if m.exact {
			best = max(best, m.score)
		}
	}
	var ms []bookMove
	for _, m := range s.lastRoot {
		if m.exact && m.score >= best-cfg.Margin {
			ms = append(ms, bookMove{sq: uint8(m.sq), value: int16(m.score)})
		}
	}
	sortBookMoves(ms)
	return ms, nil
}
