package game

// A TurnNotice is the newest notice the bot sent to a user's private chat about a game between
// people (whose move it is, that the game ended, that a rematch is offered), with what it
// claimed, so that a later step can tell whether it still holds and take it back if not.
type TurnNotice struct {
	// MessageID is the notice's message in the user's private chat; 0: none.
	MessageID int
	// GameID, Version and Moves are what a "your move" notice claimed: that in game GameID, as
	// it stood at Version with Moves moves on the board (len(Game.Moves)), the user was to
	// move. GameID "" is a notice that no later step makes false (the game is over, say).
	GameID  string
	Version int64
	Moves   int
}

// Stale reports whether g, the notice's game as it stands now, makes the notice false: a
// newer version of the game in which a move was made or which is no longer in play. A notice
// that claims nothing (GameID ""), another game, or a version not newer than the notice's
// never does, so a stale read cannot take back a notice that still holds; nor does a newer
// version that changed nothing the notice claims (a board posted again).
func (n TurnNotice) Stale(g *Game) bool {
	return n.GameID != "" && g != nil && g.ID == n.GameID && g.Version > n.Version &&
		(g.Status != StatusPlaying || len(g.Moves) != n.Moves)
}
