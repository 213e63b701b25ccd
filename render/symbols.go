package render

// MaxKeyboardSize is the largest board size the chat draws as buttons (bot/present.Keyboard);
// bigger boards are pictures. The status text says where the last move lies on such a board,
// since its buttons do not mark it.
const MaxKeyboardSize = 8

// The symbols of the discs and of the hint, in the status text and on a board's buttons: one
// symbol each, so that none is cut in a 40-pixel button of a phone (a bracketed "(⚫)" showed
// as "(…"). No other text of a board contains a disc symbol.
const (
	BlackDisc = "⚫"
	WhiteDisc = "⚪"
	HintMark  = "💡" // the legal move suggested to the player (View.WithHint), as on the Hint button
)
