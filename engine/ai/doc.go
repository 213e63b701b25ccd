// Package ai plays Reversi: evaluations learned from self-play (linear in a few features on
// every size, by patterns on 8×8: see PATTERNS.md), an iterative-deepening principal-variation
// search with a transposition table (selective at level 6 on 8×8, 10×10, 12×12 and 16×16:
// Multi-ProbCut, see SELECTIVE.md), an exact endgame solver, an 8×8 opening book built by that search (BOOK.md)
// and six playing levels, on every board size the engine supports. A Player is the AI as a game host uses it: a level's move
// and a hint, with seeded randomness and a hook on each search.
//
// Every search owns its own tables, so any number of searches may run at once. Budgets are
// hard ceilings: a search stops at its deadline or when its context is cancelled and answers
// with the best move it has found so far.
//
// Scores are from the side to move's point of view. Midgame scores are in hundredths of a disc;
// exact endgame scores follow the Othello world convention (empty squares go to the winner).
package ai
