package game

// How much one user can make a store keep, whatever their update budget allows: every store
// implementation keeps these caps (gametest.TestGames, TestPlayers and TestInvitations check
// them), so that one account
// flooding the bot holds a fixed amount of memory however long it floods.
const (
	// UserGames is how many lobbies and finished games a store keeps per user: storing one
	// more (a lobby opened, a game that ends) deletes the user's oldest lobby or finished game,
	// with its rematch mark, its inline message's binding and its review. A game in play is
	// never deleted: it only stops counting against the cap until it ends (there is one per
	// chat). A game between people counts for both players.
	UserGames = 100
	// UserResults is how many result marks (what makes RecordResult count a game once) a
	// store keeps per user: recording one more forgets the user's oldest. It is more than
	// UserGames, so a mark is forgotten only after its game was deleted, and nothing can
	// record that game's result again.
	UserResults = UserGames + 28
	// UserInvitations is how many claimed inline invitations a store keeps per creator:
	// claiming one more forgets the creator's oldest claim.
	UserInvitations = 128
)
