package i18n

// en is the canonical list of keys; the comment after a text with arguments names them.
var en = map[Key]string{
	// Command menu (setMyCommands): at most 256 characters each.
	KeyCmdStart:  "Start: main menu",
	KeyCmdAI:     "Play the bot: /ai [size] [level 1-6] [black|white|random]",
	KeyCmdNew:    "Challenge a person: a lobby in a group, an invite link in private",
	KeyCmdFind:   "Find a random opponent: /find [size]",
	KeyCmdCancel: "Stop looking for an opponent",
	KeyCmdBoard:  "Show the current board again",
	KeyCmdMove:   "Make a move: /move d3",
	KeyCmdResign: "Resign the current game (or cancel your lobby)",
	KeyCmdStats:  "Your results and rating",
	KeyCmdTop:    "Best players (in a group: of this group)",
	KeyCmdRules:  "How to play Reversi",
	KeyCmdHelp:   "What the bot can do",
	KeyCmdLang:   "Language: /lang ru or /lang en",
	KeyCmdStyle:  "8×8 boards as buttons or a picture: /style buttons|image",
	KeyCmdReview: "Look back at the last game: its costliest moves",

	// /start and its menu.
	KeyStartWelcome:    "Hello, %s! I host games of Reversi (Othello): against me, against a friend, in a group or against a random opponent. What shall we play?", // user name
	KeyMenuAI:          "🤖 Play the bot",
	KeyMenuFriend:      "👥 Play a friend",
	KeyMenuFind:        "🎲 Random opponent",
	KeyFriendPick:      "📨 Invite in a chat",
	KeyFriendGroup:     "👥 Add me to a group",
	KeyFriendLink:      "🔗 A link to forward",
	KeyMenuRules:       "📖 Rules",
	KeyMenuStats:       "📊 My stats",
	KeyMenuLang:        "🌐 Язык: русский",
	KeyMenuBack:        "« Back",
	KeyMenuStyle:       "🎨 Board style",
	KeyMenuChooseSize:  "Choose the board size:",
	KeyMenuChooseLevel: "Choose the bot's level:",
	KeyMenuChooseColor: "Choose your colour (black moves first):",
	KeyMenuFriendHow:   "To play a friend: pick a chat and I will post an invitation there, add me to a group and open a game for its members, or get a link to forward.",
	KeyColorBlack:      "⚫ Black",
	KeyColorWhite:      "⚪ White",
	KeyColorRandom:     "🎲 Random",
	KeyColorNameBlack:  "black",
	KeyColorNameWhite:  "white",

	KeyHelpText: `What I can do:

/ai [size] [level] [colour] — play against me. Sizes 8, 10, 12, 16; levels 1 (Beginner) to 6 (Master); colour black, white or random. Example: /ai 8 3 white.
/new [size] — challenge a person: in a group it opens a game anyone can join; in a private chat it gives you an invitation to forward.
/find [size] — play a random opponent; /cancel stops the search.
/board — show the current board again.
/move d3 — make a move by typing (in a private chat just d3).
/resign — give up the current game.
/review — after a game: the costliest moves of each side, the turning point and a chart of the game.
/stats, /top — results and ratings.
/rules — how to play.
/lang ru | en — language.
/style buttons | image — how 8×8 boards look: a board of buttons to tap, or a picture with buttons for your legal moves (larger boards are always pictures). Your choice is used in your private chats, and a group game uses the choice of whoever opened it.

You can also type my name in any chat to offer a game there.`,

	KeyRulesText: `How to play Reversi

The board is a square of cells: 8×8 is the classic, 10×10, 12×12 and 16×16 make longer games. Columns are letters from the left (a, b, c…), rows are numbers from the top (1, 2, 3…): a1 is the top-left corner.

The game starts with four discs in the centre, two black ⚫ and two white ⚪ on the diagonals. Black moves first, then the players take turns.

A move puts a disc of your colour on an empty cell so that, in at least one straight line (across, up and down or diagonal), a row of your opponent's discs lies between the new disc and another disc of yours. Every such row flips to your colour. A move that flips nothing is not allowed.

If you have a legal move, you must play one. If you have none, you pass and your opponent moves again; I make the pass for you and say so.

The game ends when neither player can move, usually when the board is full. Whoever has more discs wins; equal numbers are a draw.

Moving here: tap a cell of the board. On large boards a picture shows the position and the buttons list your legal moves. You can also type a move: d3 in a private chat, /move d3 anywhere (in groups I only see commands).

If your opponent leaves the game on their turn for too long, you may claim the win. Against me you can take back a move, and on levels 1-3 ask for a hint.`,

	// AI levels, weakest first.
	KeyLevel1: "Beginner",
	KeyLevel2: "Novice",
	KeyLevel3: "Casual",
	KeyLevel4: "Club player",
	KeyLevel5: "Expert",
	KeyLevel6: "Master",

	// Errors of package game (err.<code>); shown as short alerts (at most 200 characters).
	KeyErrNoGame:         "There is no game here. Start one with /ai, /new or /find.",
	KeyErrNotYourGame:    "This is not your game: only the two players can move.",
	KeyErrNotYourTurn:    "It is not your turn.",
	KeyErrStale:          "The board has changed since you saw it. Look again and make your move.",
	KeyErrOffBoard:       "That square is not on this board.",
	KeyErrOccupied:       "That square is taken.",
	KeyErrIllegal:        "You cannot move there: the move must flip at least one disc.",
	KeyErrGameOver:       "This game is over.",
	KeyErrNotStarted:     "The game has not started yet: waiting for a second player.",
	KeyErrNotOver:        "The game is still going.",
	KeyErrConflict:       "Someone moved at the same moment. Please tap again.",
	KeyErrAlreadyPlaying: "A game is already going on here. Finish it or /resign first.",
	KeyErrOwnLobby:       "This is your own game: wait for someone else to join.",
	KeyErrLobbyTaken:     "Someone else has already joined this game.",
	KeyErrNotAIGame:      "That works only in games against the bot.",
	KeyErrNoHint:         "Hints are available on levels 1-3 only.",
	KeyErrNothingToUndo:  "There is no move of yours to take back.",
	KeyErrNotIdle:        "Your opponent still has time to move.",
	KeyErrPeopleOnly:     "That works only in games between people.",
	KeyErrBadSize:        "Board sizes: 8, 10, 12 or 16.",
	KeyErrBadLevel:       "Levels go from 1 to 6.",
	KeyErrBadRequest:     "I could not understand that request.",
	KeyErrBusy:           "I am busy thinking about many games. Tap the board again in a moment.",
	KeyErrInternal:       "Something went wrong on my side. Please try again.",
	// Errors of the Telegram layer.
	KeyErrUnknownCommand: "I do not know that command. /help lists what I can do.",
	KeyErrBadMove:        "I do not understand “%s”. Type a move like d3.", // the start of the text the user typed (quote)
	KeyErrPrivateOnly:    "That works in a private chat with me.",

	// Issue 12 (trust-edge): taps whose data belongs to another message, forged invitations.
	KeyErrForeignBoard:      "That button does not belong to this message. Nothing was done.",
	KeyErrOldBoard:          "This board is out of date. Send /board to get the current one.",
	KeyErrBadInvitation:     "This invitation is not valid here. Post a new one.",
	KeyErrInvitationExpired: "This invitation has expired. Post a new one.",

	// Lobbies, invitations, inline mode.
	KeyLobbyText:              "%s wants to play Reversi on %d×%d (%s). Who accepts?",         // creator name, size, size, lobby.random_colors
	KeyLobbyTextColor:         "%s wants to play Reversi on %d×%d and takes %s. Who accepts?", // creator name, size, size, colour name (color.name_*)
	KeyLobbyJoin:              "✅ Join",
	KeyLobbyCancel:            "✖ Cancel",
	KeyLobbyCancelled:         "The game was cancelled.",
	KeyLobbyRandomColors:      "colours drawn at random",
	KeyInviteCreated:          "Forward the next message to a friend. Whoever opens it plays you on %d×%d.", // size, size
	KeyInviteText:             "%s invites you to play Reversi on %d×%d.",                                   // creator name, size, size
	KeyInviteButton:           "▶ Play",
	KeyInlineTitle:            "Reversi %[1]d×%[1]d", // board size
	KeyInlineLargeTitle:       "10×10, 12×12, 16×16: not in inline posts",
	KeyInlineLargeDescription: "Large boards are pictures, and this bot cannot show pictures in inline posts. Play them in a group or a private chat with the bot.",
	KeyInlineLargeText:        "Large boards (10×10, 12×12, 16×16) are pictures, which this bot cannot show in inline posts. Add @%s to a group and send /new 16 there, or play it in a private chat.",
	KeyInlineDescription:      "Post a game on a %[1]d×%[1]d board; the first to tap Join plays you", // board size
	KeyInlineDescriptionColor: "Post a game on a %[1]d×%[1]d board where you play %[2]s; the first to tap Join plays you",
	KeyInlineTextColor:        "%s invites this chat to play Reversi on %d×%d; %s plays %s. The first to tap Join plays.",
	KeyInlineText:             "%s invites this chat to play Reversi on %d×%d. The first to tap Join plays.", // creator name, size, size

	// Matchmaking.
	KeyFindQueued:     "🔎 Looking for an opponent on %d×%d… I will write here when I find one. If nobody comes within %s, the search ends by itself.",
	KeyFindPaired:     "✅ Opponent found: %s (rating %d). You play %s.",
	KeyFindStarting:   "🔎 Starting a search for an opponent on %d×%d…",
	KeyFindCancel:     "✖ Stop searching",
	KeyFindOver:       "This search is over.",
	KeyFindExpired:    "Nobody came to play on %d×%d in time, so I stopped looking. Try again later, or play me meanwhile with /ai.",
	KeyFindAgain:      "🔁 Search again",
	KeyFindChooseSize: "Choose the board size: I will look for an opponent who wants the same.",
	KeyFindLeft:       "The search stopped: you went into another game.",
	KeyFindCancelled:  "You are no longer looking for an opponent.",
	KeyFindNotQueued:  "You were not looking for an opponent.",

	// The text under a board.
	KeyGamePlayers:    "⚫ %s vs ⚪ %s", // black name, white name
	KeyGameThinking:   "I am thinking…",
	KeyGameBotName:    "Bot (%s)",                                                        // level name
	KeyGameIdleWait:   "You can claim the win if your opponent does not move within %s.", // Duration
	KeyGameHint:       "Try %s.",                                                         // square
	KeyNoticeYourMove: "%s played %s. Your move.",
	KeyNoticeGameOver: "%s played %s. The game is over: see the board.",
	KeyNoticeResigned: "%s resigned. The game is over.",
	KeyNoticeAborted:  "%s cancelled the game before it really began: no result.",
	KeyGameMoved:      "%s played. The board updates in a moment.",                      // square
	KeyGameMovedReply: "%s played; the bot answered %s. The board updates in a moment.", // square, squares
	KeyGameRedrawing:  "The board is about to be redrawn with the latest move: look again in a moment.",
	KeyGameMoveLost:   "The last move on this board was lost in a server failure. The board now shows the game as it was saved: please play on from there.",
	KeyGameUndone:     "one {%d move taken back.} other {%d moves taken back.}",
	KeyGamePass:       "%s has no legal move and passes.", // name of the player who passes

	// Buttons under a board.
	KeyBtnUndo:    "↩ Undo",
	KeyBtnMiniApp: "🎯 Open board",
	KeyBtnHint:    "💡 Hint",
	KeyBtnResign:  "🏳 Resign",
	KeyBtnRematch: "🔁 Rematch",
	KeyBtnClaim:   "⏰ Claim win",

	// /style.
	KeyStyleChoose:      "How should I draw 8×8 boards for you? Buttons: the board is a keyboard you tap. Picture: an image with buttons for your legal moves. Now: %s.", // style name
	KeyStyleButtons:     "⬛ Buttons",
	KeyStyleImage:       "🖼 Picture",
	KeyStyleNameButtons: "buttons",
	KeyStyleNameImage:   "picture",
	KeyStyleSet:         "8×8 boards will be drawn as %s.", // style name
	KeyGameClaimOwnTurn: "It is your turn: you can claim the win only while your opponent keeps you waiting.",

	// Results.
	KeyResultRecord: "Game record: %s", // record

	// /stats and /top.
	KeyStatsHeader:   "%s — rating %d",                  // name, rating
	KeyStatsPeople:   "Against people, %s: %s, %s, %s.", // count.games, count.wins, count.losses, count.draws
	KeyStatsAIHeader: "Against the bot:",
	KeyStatsAILine:   "%s: %s, %s, %s", // level name, count.wins, count.losses, count.draws
	KeyStatsNone:     "No finished games yet.",
	KeyTopGlobal:     "Best players — rating (wins/losses/draws against people):",
	KeyTopGroup:      "Best players of this group — rating (wins/losses/draws against people):",
	KeyTopLine:       "%d. %s — %d (%d/%d/%d)", // rank, name, rating, wins, losses, draws
	KeyTopNamesake:   "%s (%d)",                // name, number among the namesakes of the list
	KeyTopYou:        "%s ← you",               // the line of the user who asked
	KeyTopEmpty:      "Nobody has finished a rated game yet.",

	// Counts (plural texts: one form per CLDR category, see Plural).
	KeyCountWins:   "one {%d win} other {%d wins}",
	KeyCountLosses: "one {%d loss} other {%d losses}",
	KeyCountDraws:  "one {%d draw} other {%d draws}",
	KeyCountGames:  "one {%d game} other {%d games}",

	// /board: what the old copy of a moved board says.
	KeyBoardMoved:      "↓ The game moved to the board below: play there.",
	KeyBoardLobbyMoved: "↓ The invitation moved to the message below.",

	// /lang.
	KeyLangCurrent: "Language here: English. Tap a button to change it, or type /lang ru.",
	KeyLangSet:     "I will speak English.",
	KeyLangUnknown: "I speak English (en) and Russian (ru): /lang en or /lang ru.",

	// Units for Duration.
	KeyUnitDays:    "one {%d day} other {%d days}",       // n
	KeyUnitHours:   "one {%d hour} other {%d hours}",     // n
	KeyUnitMinutes: "one {%d minute} other {%d minutes}", // n

	// Issue 12 item 7 (corrupt records set aside): the text of host code set_aside.
	KeyErrSetAside: "Your game could not be read and was set aside; start a new one with /ai or /new.",

	// Atomic starts (issue 12, trust-store): the other player's chat has another game.
	KeyErrOpponentBusy: "The other player is in another game right now. Try again when it is over.",

	// Per-user update budget (issue 12, trust-flood): the short answer to updates over it, a
	// private message's and a tap's.
	KeyFloodTooFast:  "Too fast — wait a moment.",
	KeyFloodSlowDown: "Slow down: that tap did nothing. Tap again in a moment.",

	// Issue 15 item 12: a bad argument gets what is wrong with it and the command's usage.
	KeyArgBadLevel:  "“%s” is not a level: levels go from 1 to 6.",                                     // the word (quote)
	KeyArgBadSize:   "“%s” is not a board size: sizes are 8, 10, 12 and 16.",                           // the word (quote)
	KeyArgNotSquare: "“%s” is not a square.",                                                           // the word (quote)
	KeyArgOffBoard:  "“%[1]s” is not on this board: columns go from a to %[2]s, rows from 1 to %[3]d.", // the word (quote), last column, size
	KeyArgUnknown:   "I do not understand “%s”.",                                                       // the words (quote)
	KeyUsageAI:      "Usage: /ai [size] [level] [colour] — sizes 8, 10, 12, 16; levels 1 (weakest) to 6 (strongest); colour black, white or random. Example: /ai 8 3 white.",
	KeyUsageNew:     "Usage: /new [size] [colour] — sizes 8, 10, 12, 16; colour black, white or random. Example: /new 10.",
	KeyUsageFind:    "Usage: /find [size] — sizes 8, 10, 12, 16. Example: /find 10.",
	KeyUsageMove:    "Usage: /move d3 — a column letter and a row number; a1 is the top-left corner. In a private chat just d3.",

	// Issue 15 item 12: joining a game of one's own.
	KeyErrOwnInvite:  "This is your own invitation: forward it to a friend, and whoever opens it plays you.",
	KeyErrInYourGame: "This game is yours: you are already playing it.",

	// The reminder of a turn in a group or inline game, which mentions the player to move.
	KeyRemindTurn:  "%s, it is your move in the game against %s (%s was played).", // name, opponent name, square
	KeyRemindFirst: "%s, it is your move in the game against %s.",                 // name, opponent name

	// The end of a game and what comes next (issue 15, items 2-4).
	KeyBtnResignAsk:    "🏳 Resign?",
	KeyBtnYes:          "Yes",
	KeyBtnNo:           "No",
	KeyBtnAccept:       "✅ Accept",
	KeyBtnDecline:      "✖ Decline",
	KeyBtnWithdraw:     "✖ Withdraw offer",
	KeyBtnOtherGame:    "🎚 Level or size",
	KeyBtnMenu:         "☰ Menu",
	KeyEndYouWin:       "You win %d : %d! 🎉",             // the viewer's discs, the opponent's
	KeyEndYouLose:      "You lose %d : %d. Another try?", // the viewer's discs, the opponent's
	KeyEndRatings:      "Ratings: %s, %s",                // black's KeyEndRating, white's
	KeyEndRating:       "%s %d (%s)",                     // name, rating after, signed change
	KeyEndAborted:      "Aborted before both players had moved: no result, ratings unchanged.",
	KeyEndRecord:       "Moves: %s", // the numbered moves
	KeyEndPass:         "pass",
	KeyEndMovesInRow:   "Moves in a row by %s: %s.",                                      // player, squares
	KeyEndOffered:      "%s offers a rematch (open for %s).",                             // name of the player who offers, Duration
	KeyEndOfferedByYou: "You offered a rematch (open for %s). Waiting for %s to accept.", // Duration, opponent
	KeyEndOfferedToYou: "%s offers you a rematch (open for %s).",                         // name of the player who offers, Duration
	KeyEndAccepted:     "Rematch accepted: the new game has started.",
	KeyEndDeclined:     "%s declined the rematch.",         // name of the player who declined
	KeyEndWithdrawn:    "%s withdrew the rematch offer.",   // name of the player who withdrew
	KeyEndExpired:      "The rematch offer of %s expired.", // name of the player who offered
	KeyEndOfferSent:    "Rematch offered.",
	KeyEndOfferNotice:  "%s offers you a rematch: accept or decline it on your board.", // name of the player who offers
	KeyEndNotAsked:     "This question is for the other player.",
	KeyErrNoOffer:      "There is no rematch offer to answer.",
	KeyErrOwnOffer:     "Your offer stands: the other player has to accept it.",
	KeyErrOfferExpired: "The rematch offer has expired. Tap Rematch to offer a new one.",
	KeyErrNoMoves:      "No move was played in this game: there is nothing to look back at.",

	KeyBtnReview:          "🔍 Review",
	KeyReplayCaption:      "🎞 The whole game: ⚫ %s %d : %d ⚪ %s",
	KeyReviewStarted:      "one {🔍 Looking over the game: about %d second.} other {🔍 Looking over the game: about %d seconds.}",
	KeyReviewLong:         "one {🔍 Looking over the game: about %d minute.} other {🔍 Looking over the game: about %d minutes.}",
	KeyReviewTitle:        "🔍 Review: ⚫ %s %d : %d ⚪ %s",
	KeyReviewMistakes:     "%s, the costliest moves:",
	KeyReviewMistake:      "%d. %s instead of %s: %s",
	KeyReviewDiscs:        "one {−%d disc} other {−%d discs}",
	KeyReviewClean:        "%s: no costly move.",
	KeyReviewTurning:      "Turning point: move %d, %s %s.",
	KeyReviewExact:        "Exact from move %d on; earlier moves by a search %d moves deep.",
	KeyReviewAllExact:     "Every move solved exactly.",
	KeyReviewSearched:     "Moves judged by a search %d moves deep.",
	KeyReviewFailed:       "The review could not be made. Try /review again later.",
	KeyReviewBusy:         "Too many games are being played right now to look back at this one. Try /review again in a few minutes.",
	KeyReviewPosted:       "The review of this game is here already, or on its way.",
	KeyReviewNotYours:     "Only the two players of this game can open its review here.",
	KeyReviewPlotEval:     "Advantage in discs",
	KeyReviewPlotMove:     "move",
	KeyReviewPlotBlack:    "Black ahead",
	KeyReviewPlotWhite:    "White ahead",
	KeyReviewPlotMistakes: "costly moves",
	KeyReviewPlotTurning:  "turning point",
	KeyReviewPlotExact:    "solved exactly",
	KeyAppAuthBad:         "This board could not confirm who you are. Open it again from the chat with the bot.",
	KeyAppAuthExpired:     "This board was opened too long ago. Open it again from the chat with the bot.",
	KeyAppPrivate:         "This game is private: only its two players can see it.",
	KeyAppTooMany:         "Too many requests. Wait a moment and try again.",
	KeyAppTooManyWatches:  "This game is open in too many windows. Close some of them.",
	KeyAppServerBusy:      "The server is busy. Reconnecting…",
	KeyAppTooLarge:        "The request is too large.",
	KeyAppMissingGame:     "No game is named here. Open the board from the game's message in the chat.",
	KeyAppBadMoveRequest:  "That move could not be read.",
	KeyAppPageOld:         "This page is out of date, so your move was not played. Close it and open the board again from the chat.",
	KeyAppNoGame:          "This game no longer exists.",
	KeyAppStale:           "The board changed before your move arrived: here it is as it is now.",

	// The Mini App's page. A status line (your_move ... sending) gets animated dots when it
	// tells of a wait: write it without them.
	KeyAppTitle:        "Reversi",
	KeyAppYourMove:     "Your move",
	KeyAppWaitingFor:   "Waiting for %s", // name of the player to move
	KeyAppToMove:       "%s to move",     // name of the player to move
	KeyAppThinking:     "The bot is thinking",
	KeyAppLobby:        "Waiting for a second player",
	KeyAppSending:      "Sending your move",
	KeyAppYou:          "You",
	KeyAppBot:          "Bot",
	KeyAppBlack:        "Black",
	KeyAppWhite:        "White",
	KeyAppWatching:     "You are watching this game",
	KeyAppMoveNumber:   "Move %d", // the number of the move to play
	KeyAppMovesPlayed:  "one {%d move} other {%d moves}",
	KeyAppLastMove:     "Last move: %s", // square
	KeyAppDiscs:        "one {%d disc} other {%d discs}",
	KeyAppReconnecting: "Reconnecting…",
	KeyAppNoInitData:   "Open this board from the chat with the bot.",
	KeyAppFailed:       "Something went wrong. Please try again.",
	KeyAppOffline:      "No connection. Please try again.",
}
