package i18n

// en is the canonical list of keys; the comment after a text with arguments names them.
var en = map[Key]string{
	// Command menu (setMyCommands): at most 256 characters each.
	"cmd.start":  "Start: main menu",
	"cmd.ai":     "Play the bot: /ai [size] [level 1-6] [black|white|random]",
	"cmd.new":    "Challenge a person: a lobby in a group, an invite link in private",
	"cmd.find":   "Find a random opponent: /find [size]",
	"cmd.cancel": "Stop looking for an opponent",
	"cmd.board":  "Show the current board again",
	"cmd.move":   "Make a move: /move d3",
	"cmd.resign": "Resign the current game (or cancel your lobby)",
	"cmd.stats":  "Your results and rating",
	"cmd.top":    "Best players (in a group: of this group)",
	"cmd.rules":  "How to play Reversi",
	"cmd.help":   "What the bot can do",
	"cmd.lang":   "Language: /lang ru or /lang en",
	"cmd.style":  "8×8 boards as buttons or a picture: /style buttons|image",

	// /start and its menu.
	"start.welcome":     "Hello, %s! I host games of Reversi (Othello): against me, against a friend, in a group or against a random opponent. What shall we play?", // user name
	"menu.ai":           "🤖 Play the bot",
	"menu.friend":       "👥 Play a friend",
	"menu.find":         "🎲 Random opponent",
	"menu.rules":        "📖 Rules",
	"menu.stats":        "📊 My stats",
	"menu.lang":         "🌐 Язык: русский",
	"menu.back":         "« Back",
	"menu.style":        "🎨 Board style",
	"menu.choose_size":  "Choose the board size:",
	"menu.choose_level": "Choose the bot's level:",
	"menu.choose_color": "Choose your colour (black moves first):",
	"menu.size":         "%[1]d×%[1]d", // board size
	"menu.friend_how":   "To play a friend: send them an invitation with /new here, or type my name in any chat and pick a board, or add me to a group and use /new there.",
	"color.black":       "⚫ Black",
	"color.white":       "⚪ White",
	"color.random":      "🎲 Random",
	"color.name_black":  "black",
	"color.name_white":  "white",

	"help.text": `What I can do:

/ai [size] [level] [colour] — play against me. Sizes 8, 10, 12, 16; levels 1 (Beginner) to 6 (Master); colour black, white or random. Example: /ai 8 3 white.
/new [size] — challenge a person: in a group it opens a game anyone can join; in a private chat it gives you an invitation to forward.
/find [size] — play a random opponent; /cancel stops the search.
/board — show the current board again.
/move d3 — make a move by typing (in a private chat just d3).
/resign — give up the current game.
/stats, /top — results and ratings.
/rules — how to play.
/lang ru | en — language.
/style buttons | image — how 8×8 boards look: a board of buttons to tap, or a picture with buttons for your legal moves (larger boards are always pictures). Your choice is used in your private chats, and a group game uses the choice of whoever opened it.

You can also type my name in any chat to offer a game there.`,

	"rules.text": `How to play Reversi

The board is a square of cells: 8×8 is the classic, 10×10, 12×12 and 16×16 make longer games. Columns are letters from the left (a, b, c…), rows are numbers from the top (1, 2, 3…): a1 is the top-left corner.

The game starts with four discs in the centre, two black ⚫ and two white ⚪ on the diagonals. Black moves first, then the players take turns.

A move puts a disc of your colour on an empty cell so that, in at least one straight line (across, up and down or diagonal), a row of your opponent's discs lies between the new disc and another disc of yours. Every such row flips to your colour. A move that flips nothing is not allowed.

If you have a legal move, you must play one. If you have none, you pass and your opponent moves again; I make the pass for you and say so.

The game ends when neither player can move, usually when the board is full. Whoever has more discs wins; equal numbers are a draw.

Moving here: tap a cell of the board. On large boards a picture shows the position and the buttons list your legal moves. You can also type a move: d3 in a private chat, /move d3 anywhere (in groups I only see commands).

If your opponent leaves the game on their turn for too long, you may claim the win. Against me you can take back a move, and on levels 1-3 ask for a hint.`,

	// AI levels, weakest first.
	"level.1":    "Beginner",
	"level.2":    "Novice",
	"level.3":    "Casual",
	"level.4":    "Club player",
	"level.5":    "Expert",
	"level.6":    "Master",
	"level.line": "Level %d: %s", // level number, level name

	// Errors of package host (err.<code>); shown as short alerts (at most 200 characters).
	"err.no_game":         "There is no game here. Start one with /ai, /new or /find.",
	"err.not_your_game":   "This is not your game: only the two players can move.",
	"err.not_your_turn":   "It is not your turn.",
	"err.stale":           "The board has changed since you saw it. Look again and make your move.",
	"err.off_board":       "That square is not on this board.",
	"err.occupied":        "That square is taken.",
	"err.illegal":         "You cannot move there: the move must flip at least one disc.",
	"err.game_over":       "This game is over.",
	"err.not_started":     "The game has not started yet: waiting for a second player.",
	"err.not_over":        "The game is still going.",
	"err.conflict":        "Someone moved at the same moment. Please tap again.",
	"err.already_playing": "A game is already going on here. Finish it or /resign first.",
	"err.own_lobby":       "This is your own game: wait for someone else to join.",
	"err.lobby_taken":     "Someone else has already joined this game.",
	"err.not_ai_game":     "That works only in games against the bot.",
	"err.no_hint":         "Hints are available on levels 1-3 only.",
	"err.nothing_to_undo": "There is no move of yours to take back.",
	"err.not_idle":        "Your opponent still has time to move.",
	"err.people_only":     "That works only in games between people.",
	"err.bad_size":        "Board sizes: 8, 10, 12 or 16.",
	"err.bad_level":       "Levels go from 1 to 6.",
	"err.bad_request":     "I could not understand that request.",
	"err.busy":            "I am busy thinking about many games. Tap the board again in a moment.",
	"err.internal":        "Something went wrong on my side. Please try again.",
	// Errors of the Telegram layer.
	"err.unknown_command": "I do not know that command. /help lists what I can do.",
	"err.bad_move":        "I do not understand \"%s\". Type a move like d3.", // the start of the text the user typed (quote)
	"err.private_only":    "That works in a private chat with me.",
	"err.group_only":      "That works in a group.",
	"err.old_button":      "This button is out of date.",
	"err.queued_already":  "You are already looking for an opponent. /cancel stops the search.",

	// Issue 12 (trust-edge): taps whose data belongs to another message, forged invitations.
	"err.foreign_board":      "That button does not belong to this message. Nothing was done.",
	"err.old_board":          "This board is out of date. Send /board to get the current one.",
	"err.bad_invitation":     "This invitation is not valid here. Post a new one.",
	"err.invitation_expired": "This invitation has expired. Post a new one.",

	// Lobbies, invitations, inline mode.
	"lobby.text":          "%s wants to play Reversi on %d×%d (%s). Who accepts?",         // creator name, size, size, lobby.random_colors
	"lobby.text_color":    "%s wants to play Reversi on %d×%d and takes %s. Who accepts?", // creator name, size, size, colour name (color.name_*)
	"lobby.join":          "✅ Join",
	"lobby.cancel":        "✖ Cancel",
	"lobby.cancelled":     "The game was cancelled.",
	"lobby.random_colors": "colours drawn at random",
	"invite.created":      "Forward the next message to a friend. Whoever opens it plays you on %d×%d.", // size, size
	"invite.text":         "%s invites you to play Reversi on %d×%d.",                                   // creator name, size, size
	"invite.button":       "▶ Play",
	"invite.joined":       "%s accepted your invitation. The game is on!",                                // joiner name
	"inline.title":        "Reversi %[1]d×%[1]d",                                                         // board size
	"inline.description":  "Post a game on a %[1]d×%[1]d board; the first to tap Join plays you",         // board size
	"inline.text":         "%s invites this chat to play Reversi on %d×%d. The first to tap Join plays.", // creator name, size, size
	"joined":              "%s joined. %s plays black and moves first.",                                  // joiner name, black player name

	// Matchmaking.
	"find.queued":     "Looking for an opponent on %d×%d… I will write when I find one. /cancel stops the search.", // size, size
	"find.paired":     "Opponent found: %s. You play %s.",                                                          // opponent name, colour name (color.name_*)
	"find.cancelled":  "You are no longer looking for an opponent.",
	"find.not_queued": "You were not looking for an opponent.",

	// The text under a board.
	"game.players":     "⚫ %s vs ⚪ %s",     // black name, white name
	"game.score":       "⚫ %d : %d ⚪",      // black discs, white discs
	"game.turn":        "%s to move (%s).", // name, colour symbol
	"game.your_turn":   "Your move (%s).",  // colour symbol
	"game.last_move":   "Last move: %s.",   // square
	"game.thinking":    "I am thinking…",
	"game.bot_name":    "Bot (%s)",                                                        // level name
	"game.size":        "Board %[1]d×%[1]d",                                               // board size
	"game.moves_page":  "Moves %d-%d of %d",                                               // first, last, total
	"game.idle_claim":  "%s has not moved for %s. You may claim the win.",                 // idle name, Duration
	"game.idle_wait":   "You can claim the win if your opponent does not move within %s.", // Duration
	"game.hint":        "Try %s.",                                                         // square
	"game.undone":      "Moves taken back: %d.",                                           // moves taken back
	"game.pass":        "%s has no legal move and passes.",                                // name of the player who passes
	"game.passes_both": "Neither side can move.",

	// Buttons under a board.
	"btn.undo":    "↩ Undo",
	"btn.hint":    "💡 Hint",
	"btn.resign":  "🏳 Resign",
	"btn.rematch": "🔁 Rematch",
	"btn.claim":   "⏰ Claim win",

	// /style.
	"style.choose":        "How should I draw 8×8 boards for you? Buttons: the board is a keyboard you tap. Picture: an image with buttons for your legal moves. Now: %s.", // style name
	"style.buttons":       "⬛ Buttons",
	"style.image":         "🖼 Picture",
	"style.name_buttons":  "buttons",
	"style.name_image":    "picture",
	"style.set":           "8×8 boards will be drawn as %s.", // style name
	"game.claim_own_turn": "It is your turn: you can claim the win only while your opponent keeps you waiting.",
	"btn.refresh":         "🔄 Refresh",
	"btn.picture":         "🖼 Picture",
	"btn.keyboard":        "⌨ Buttons",
	"btn.prev":            "◀",
	"btn.next":            "▶",
	"btn.new_game":        "🆕 New game",

	// Results.
	"result.win":      "%s wins %d : %d.",                  // winner name, winner discs, loser discs
	"result.draw":     "Draw, %d : %d.",                    // discs, discs
	"result.resign":   "%s resigned. %s wins.",             // loser name, winner name
	"result.timeout":  "%s did not move in time. %s wins.", // idle name, winner name
	"result.abandon":  "The game was abandoned.",
	"result.record":   "Game record: %s", // record
	"result.you_win":  "You win! 🎉",
	"result.you_lose": "You lose. Another try?",

	// /stats and /top.
	"stats.header":    "%s — rating %d",                                // name, rating
	"stats.people":    "Against people: %d wins, %d losses, %d draws.", // wins, losses, draws
	"stats.ai_header": "Against the bot:",
	"stats.ai_line":   "%s: %d wins, %d losses, %d draws", // level name, wins, losses, draws
	"stats.none":      "No finished games yet.",
	"top.global":      "Best players:",
	"top.group":       "Best players of this group:",
	"top.line":        "%d. %s — %d (%d/%d/%d)", // rank, name, rating, wins, losses, draws
	"top.empty":       "Nobody has finished a rated game yet.",

	// /lang.
	"lang.current": "Language: English. /lang ru switches to Russian.",
	"lang.set":     "I will speak English.",
	"lang.unknown": "I speak English (en) and Russian (ru): /lang en or /lang ru.",

	// Units for Duration.
	"unit.days":    "%d d",   // n
	"unit.hours":   "%d h",   // n
	"unit.minutes": "%d min", // n

	// Issue 12 item 7 (corrupt records set aside): the text of host code set_aside.
	"err.set_aside": "Your game could not be read and was set aside; start a new one with /ai or /new.",

	// Atomic starts (issue 12, trust-store): the other player's chat has another game.
	"err.opponent_busy": "The other player is in another game right now. Try again when it is over.",

	// Per-user update budget (issue 12, trust-flood): the short answer to updates over it.
	"flood.too_fast": "Too fast — wait a moment.",
}
