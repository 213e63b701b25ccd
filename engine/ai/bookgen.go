package ai

import (
	"context"
	"errors"
	"sort"
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
	// Size is the board's side; 0 stands for 8.
	Size int
}

// DefaultBookGenConfig is the configuration of the embedded 8×8 book (BOOK.md).
var DefaultBookGenConfig = BookGenConfig{Plies: 10, Depth: 12, Margin: 60, Full: 3}

// DefaultBookGenConfigN returns the configuration of the embedded book of an n×n board
// (n > 8): its first 6 plies, searched a little deeper than level 6 reaches there in its
// time (BOOK.md).
func DefaultBookGenConfigN(n int) BookGenConfig {
	depth := 9
	switch {
	case n <= 10:
		depth = 11
	case n <= 12:
		depth = 10
	}
	return BookGenConfig{Plies: 6, Depth: depth, Margin: 60, Full: 2, Size: n}
}

// GenerateBook builds an opening book of the board cfg.Size by the package's own search
// (level 6's evaluation of that size): from the start, level
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
	n := max(cfg.Size, 8)
	bd := bookBoardFor(n)
	if bd == nil {
		return nil, errors.New("ai: no book for this board size")
	}
	size := cfg.Size
	if n == 8 {
		size = 0
	}
	if cache == nil {
		cache = &Book{Size: size}
	}
	if cache.entries == nil {
		cache.entries = map[bookKey][]bookMove{}
		cache.Size, cache.Depth, cache.Margin = size, cfg.Depth, cfg.Margin
	}
	if cache.Depth != cfg.Depth || cache.Margin != cfg.Margin || cache.Size != size {
		return nil, errors.New("ai: book cache made with another size, depth or margin")
	}
	k0, _ := bd.canonical(bd.start())
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
				var err error
				if ms, err = bd.search(ctx, cfg, k); err != nil {
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
				for _, sq := range bd.moves(k) {
					expand = append(expand, bookMove{sq: uint8(sq)})
				}
			}
			for _, m := range expand {
				child := bd.play(k, int(m.sq))
				if len(bd.moves(child)) == 0 {
					continue
				}
				ck, _ := bd.canonical(child)
				if !seen[ck] {
					seen[ck] = true
					next = append(next, ck)
				}
			}
		}
		level = next
	}
	book := &Book{Size: size, Plies: cfg.Plies, Depth: cfg.Depth, Margin: cfg.Margin, Full: cfg.Full, entries: map[bookKey][]bookMove{}}
	for ply := len(levels) - 1; ply >= 0; ply-- {
		for _, k := range levels[ply] {
			book.entries[k] = backedUp(bd, book, k, cache.entries[k])
		}
	}
	return book, nil
}

// backedUp returns the moves raw of position k with the values of those whose position after
// them book holds replaced by minus that position's best value (negamax), best first.
func backedUp(bd bookBoard, book *Book, k bookKey, raw []bookMove) []bookMove {
	ms := make([]bookMove, len(raw))
	for i, m := range raw {
		ms[i] = m
		ck, _ := bd.canonical(bd.play(k, int(m.sq)))
		if child, ok := book.entries[ck]; ok && len(child) > 0 {
			ms[i].value = -child[0].value
		}
	}
	sortBookMoves(ms)
	return ms
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
