package i18n

// The keys of the texts, one constant each (a test checks that every text has one): en.go
// holds the canonical text of every one, and the comment after a constant names the
// arguments of its text when it takes any.
const (
	// Answers to a command argument the command cannot take, before the command's usage.
	KeyArgBadLevel  Key = "arg.bad_level"  // the word (quote)
	KeyArgBadSize   Key = "arg.bad_size"   // the word (quote)
	KeyArgNotSquare Key = "arg.not_square" // the word (quote)
	KeyArgOffBoard  Key = "arg.off_board"  // the word (quote), the last column's letter, board size
	KeyArgUnknown   Key = "arg.unknown"    // the words (quote)

	KeyBtnClaim   Key = "btn.claim"
	KeyBtnHint    Key = "btn.hint"
	KeyBtnRematch Key = "btn.rematch"
	KeyBtnResign  Key = "btn.resign"
	KeyBtnReview  Key = "btn.review"
	KeyBtnUndo    Key = "btn.undo"
	KeyBtnMiniApp Key = "btn.miniapp"

	KeyBtnAccept       Key = "btn.accept"
	KeyBtnDecline      Key = "btn.decline"
	KeyBtnMenu         Key = "btn.menu"
	KeyBtnNo           Key = "btn.no"
	KeyBtnOtherGame    Key = "btn.other_game"
	KeyBtnResignAsk    Key = "btn.resign_ask"
	KeyBtnWithdraw     Key = "btn.withdraw"
	KeyBtnYes          Key = "btn.yes"
	KeyBoardLobbyMoved Key = "board.lobby_moved"
	KeyBoardMoved      Key = "board.moved"

	KeyCmdAI     Key = "cmd.ai"
	KeyCmdBoard  Key = "cmd.board"
	KeyCmdCancel Key = "cmd.cancel"
	KeyCmdFind   Key = "cmd.find"
	KeyCmdHelp   Key = "cmd.help"
	KeyCmdLang   Key = "cmd.lang"
	KeyCmdMove   Key = "cmd.move"
	KeyCmdNew    Key = "cmd.new"
	KeyCmdResign Key = "cmd.resign"
	KeyCmdRules  Key = "cmd.rules"
	KeyCmdStart  Key = "cmd.start"
	KeyCmdStats  Key = "cmd.stats"
	KeyCmdReview Key = "cmd.review"
	KeyCmdStyle  Key = "cmd.style"
	KeyCmdTop    Key = "cmd.top"

	KeyColorBlack     Key = "color.black"
	KeyColorNameBlack Key = "color.name_black"
	KeyColorNameWhite Key = "color.name_white"
	KeyColorRandom    Key = "color.random"
	KeyColorWhite     Key = "color.white"

	// Counts: plural texts (see Plural), each taking the count.
	KeyCountDraws  Key = "count.draws"  // n
	KeyCountGames  Key = "count.games"  // n
	KeyCountLosses Key = "count.losses" // n
	KeyCountWins   Key = "count.wins"   // n

	KeyEndAborted      Key = "end.aborted"
	KeyEndAccepted     Key = "end.accepted"
	KeyEndDeclined     Key = "end.declined"  // name of the player who declined
	KeyEndExpired      Key = "end.expired"   // name of the player who offered
	KeyEndMovesInRow   Key = "end.moves_row" // player (symbol and name), squares
	KeyEndNotAsked     Key = "end.not_asked"
	KeyEndOffered      Key = "end.offered"        // name of the player who offers, Duration
	KeyEndOfferedByYou Key = "end.offered_by_you" // Duration, name of the opponent
	KeyEndOfferedToYou Key = "end.offered_to_you" // name of the player who offers, Duration
	KeyEndOfferNotice  Key = "end.offer_notice"   // name of the player who offers
	KeyEndOfferSent    Key = "end.offer_sent"
	KeyEndPass         Key = "end.pass"      // the word for a pass in a game record
	KeyEndRating       Key = "end.rating"    // name, rating after, signed change
	KeyEndRatings      Key = "end.ratings"   // black's KeyEndRating, white's
	KeyEndRecord       Key = "end.record"    // the numbered moves
	KeyEndWithdrawn    Key = "end.withdrawn" // name of the player who withdrew
	KeyEndYouLose      Key = "end.you_lose"  // the viewer's discs, the opponent's
	KeyEndYouWin       Key = "end.you_win"   // the viewer's discs, the opponent's

	KeyErrAlreadyPlaying    Key = "err.already_playing"
	KeyErrBadInvitation     Key = "err.bad_invitation"
	KeyErrBadLevel          Key = "err.bad_level"
	KeyErrBadMove           Key = "err.bad_move" // the start of the text the user typed (quote)
	KeyErrBadRequest        Key = "err.bad_request"
	KeyErrBadSize           Key = "err.bad_size"
	KeyErrBusy              Key = "err.busy"
	KeyErrConflict          Key = "err.conflict"
	KeyErrForeignBoard      Key = "err.foreign_board"
	KeyErrGameOver          Key = "err.game_over"
	KeyErrInYourGame        Key = "err.in_your_game"
	KeyErrIllegal           Key = "err.illegal"
	KeyErrInternal          Key = "err.internal"
	KeyErrInvitationExpired Key = "err.invitation_expired"
	KeyErrLobbyTaken        Key = "err.lobby_taken"
	KeyErrNoGame            Key = "err.no_game"
	KeyErrNoHint            Key = "err.no_hint"
	KeyErrNoOffer           Key = "err.no_offer"
	KeyErrNotAIGame         Key = "err.not_ai_game"
	KeyErrNotIdle           Key = "err.not_idle"
	KeyErrNotOver           Key = "err.not_over"
	KeyErrNotStarted        Key = "err.not_started"
	KeyErrNotYourGame       Key = "err.not_your_game"
	KeyErrNotYourTurn       Key = "err.not_your_turn"
	KeyErrNothingToUndo     Key = "err.nothing_to_undo"
	KeyErrOccupied          Key = "err.occupied"
	KeyErrOfferExpired      Key = "err.offer_expired"
	KeyErrNoMoves           Key = "err.no_moves"
	KeyErrOffBoard          Key = "err.off_board"
	KeyErrOldBoard          Key = "err.old_board"
	KeyErrOpponentBusy      Key = "err.opponent_busy"
	KeyErrOwnInvite         Key = "err.own_invite"
	KeyErrOwnLobby          Key = "err.own_lobby"
	KeyErrOwnOffer          Key = "err.own_offer"
	KeyErrPeopleOnly        Key = "err.people_only"
	KeyErrPrivateOnly       Key = "err.private_only"
	KeyErrSetAside          Key = "err.set_aside"
	KeyErrStale             Key = "err.stale"
	KeyErrUnknownCommand    Key = "err.unknown_command"

	KeyFindAgain      Key = "find.again"
	KeyFindCancel     Key = "find.cancel"
	KeyFindCancelled  Key = "find.cancelled"
	KeyFindChooseSize Key = "find.choose_size"
	KeyFindExpired    Key = "find.expired" // size, size
	KeyFindLeft       Key = "find.left"
	KeyFindNotQueued  Key = "find.not_queued"
	KeyFindOver       Key = "find.over"
	KeyFindPaired     Key = "find.paired"   // opponent name, their rating, colour name (color.name_*)
	KeyFindQueued     Key = "find.queued"   // size, size, the longest wait (Duration)
	KeyFindStarting   Key = "find.starting" // size, size

	KeyFloodTooFast  Key = "flood.too_fast"
	KeyFloodSlowDown Key = "flood.slow_down"

	KeyNoticeAborted  Key = "notice.aborted"   // opponent name
	KeyNoticeGameOver Key = "notice.game_over" // opponent name, square
	KeyNoticeResigned Key = "notice.resigned"  // opponent name
	KeyNoticeYourMove Key = "notice.your_move" // opponent name, square

	KeyRemindFirst Key = "remind.first" // name, opponent name
	KeyRemindTurn  Key = "remind.turn"  // name, opponent name, square

	KeyGameBotName      Key = "game.bot_name" // level name
	KeyGameClaimOwnTurn Key = "game.claim_own_turn"
	KeyGameHint         Key = "game.hint"        // square
	KeyGameIdleWait     Key = "game.idle_wait"   // Duration
	KeyGameMoved        Key = "game.moved"       // the player's square
	KeyGameMovedReply   Key = "game.moved_reply" // the player's square, the bot's squares
	KeyGameRedrawing    Key = "game.redrawing"
	KeyGameMoveLost     Key = "game.move_lost"
	KeyGamePass         Key = "game.pass"    // name of the player who passes
	KeyGamePlayers      Key = "game.players" // black name, white name
	KeyGameThinking     Key = "game.thinking"
	KeyGameUndone       Key = "game.undone" // moves taken back (plural)

	KeyFriendGroup Key = "friend.group"
	KeyFriendLink  Key = "friend.link"
	KeyFriendPick  Key = "friend.pick"

	KeyHelpText Key = "help.text"

	KeyInlineDescription      Key = "inline.description"       // board size
	KeyInlineDescriptionColor Key = "inline.description_color" // board size, the poster's colour (color.name_*)
	KeyInlineText             Key = "inline.text"              // creator name, size, size
	KeyInlineTextColor        Key = "inline.text_color"        // creator name, size, size, creator name, colour (color.name_*)
	KeyInlineTitle            Key = "inline.title"             // board size
	KeyInlineLargeTitle       Key = "inline.large_title"
	KeyInlineLargeDescription Key = "inline.large_description"
	KeyInlineLargeText        Key = "inline.large_text" // the bot's username

	KeyInviteButton  Key = "invite.button"
	KeyInviteCreated Key = "invite.created" // size, size
	KeyInviteText    Key = "invite.text"    // creator name, size, size

	KeyLangCurrent Key = "lang.current"
	KeyLangSet     Key = "lang.set"
	KeyLangUnknown Key = "lang.unknown"

	KeyLevel1 Key = "level.1"
	KeyLevel2 Key = "level.2"
	KeyLevel3 Key = "level.3"
	KeyLevel4 Key = "level.4"
	KeyLevel5 Key = "level.5"
	KeyLevel6 Key = "level.6"

	KeyLobbyCancel       Key = "lobby.cancel"
	KeyLobbyCancelled    Key = "lobby.cancelled"
	KeyLobbyJoin         Key = "lobby.join"
	KeyLobbyRandomColors Key = "lobby.random_colors"
	KeyLobbyText         Key = "lobby.text"       // creator name, size, size, lobby.random_colors
	KeyLobbyTextColor    Key = "lobby.text_color" // creator name, size, size, colour name (color.name_*)

	KeyMenuAI          Key = "menu.ai"
	KeyMenuBack        Key = "menu.back"
	KeyMenuChooseColor Key = "menu.choose_color"
	KeyMenuChooseLevel Key = "menu.choose_level"
	KeyMenuChooseSize  Key = "menu.choose_size"
	KeyMenuFind        Key = "menu.find"
	KeyMenuFriend      Key = "menu.friend"
	KeyMenuFriendHow   Key = "menu.friend_how"
	KeyMenuLang        Key = "menu.lang"
	KeyMenuRules       Key = "menu.rules"
	KeyMenuStats       Key = "menu.stats"
	KeyMenuStyle       Key = "menu.style"

	KeyResultRecord Key = "result.record" // record

	KeyRulesText Key = "rules.text"

	KeyStartWelcome Key = "start.welcome" // user name

	KeyStatsAIHeader Key = "stats.ai_header"
	KeyStatsAILine   Key = "stats.ai_line" // level name, wins, losses, draws
	KeyStatsHeader   Key = "stats.header"  // name, rating
	KeyStatsNone     Key = "stats.none"
	KeyStatsPeople   Key = "stats.people" // wins, losses, draws

	KeyStyleButtons     Key = "style.buttons"
	KeyStyleChoose      Key = "style.choose" // style name
	KeyStyleImage       Key = "style.image"
	KeyStyleNameButtons Key = "style.name_buttons"
	KeyStyleNameImage   Key = "style.name_image"
	KeyStyleSet         Key = "style.set" // style name

	KeyTopEmpty    Key = "top.empty"
	KeyTopGlobal   Key = "top.global"
	KeyTopGroup    Key = "top.group"
	KeyTopLine     Key = "top.line"     // rank, name, rating, wins, losses, draws
	KeyTopNamesake Key = "top.namesake" // name, number among the namesakes of the list
	KeyTopYou      Key = "top.you"      // the line of the user who asked

	KeyUsageAI   Key = "usage.ai"
	KeyUsageFind Key = "usage.find"
	KeyUsageMove Key = "usage.move"
	KeyUsageNew  Key = "usage.new"

	KeyReplayCaption      Key = "replay.caption"   // black's name, black's discs, white's discs, white's name
	KeyReviewStarted      Key = "review.started"   // seconds (plural)
	KeyReviewLong         Key = "review.long"      // minutes (plural)
	KeyReviewTitle        Key = "review.title"     // black's name, black's discs, white's discs, white's name
	KeyReviewMistakes     Key = "review.mistakes"  // colour disc and name
	KeyReviewMistake      Key = "review.mistake"   // move number, played square, best square, KeyReviewDiscs
	KeyReviewDiscs        Key = "review.discs"     // discs lost (plural)
	KeyReviewClean        Key = "review.clean"     // colour disc and name
	KeyReviewTurning      Key = "review.turning"   // move number, colour disc, square
	KeyReviewExact        Key = "review.exact"     // first exact move number, search depth
	KeyReviewAllExact     Key = "review.all_exact" // every move solved exactly
	KeyReviewSearched     Key = "review.searched"  // search depth
	KeyReviewFailed       Key = "review.failed"
	KeyReviewBusy         Key = "review.busy"
	KeyReviewPosted       Key = "review.posted"
	KeyReviewNotYours     Key = "review.not_yours"
	KeyReviewPlotEval     Key = "review.plot_eval"
	KeyReviewPlotMove     Key = "review.plot_move"
	KeyReviewPlotBlack    Key = "review.plot_black"
	KeyReviewPlotWhite    Key = "review.plot_white"
	KeyReviewPlotMistakes Key = "review.plot_mistakes"
	KeyReviewPlotTurning  Key = "review.plot_turning"
	KeyReviewPlotExact    Key = "review.plot_exact"

	KeyUnitDays    Key = "unit.days"    // n (plural)
	KeyUnitHours   Key = "unit.hours"   // n (plural)
	KeyUnitMinutes Key = "unit.minutes" // n (plural)
)

// The Mini App's own texts (package webapp): its refusals and the game errors it words
// otherwise than the chat does.
const (
	KeyAppAuthBad        Key = "app.auth_bad"
	KeyAppAuthExpired    Key = "app.auth_expired"
	KeyAppPrivate        Key = "app.private"
	KeyAppTooMany        Key = "app.too_many"
	KeyAppTooManyWatches Key = "app.too_many_watches"
	KeyAppServerBusy     Key = "app.server_busy"
	KeyAppTooLarge       Key = "app.too_large"
	KeyAppMissingGame    Key = "app.missing_game"
	KeyAppBadMoveRequest Key = "app.bad_move_request"
	KeyAppPageOld        Key = "app.page_old"
	KeyAppNoGame         Key = "app.no_game"
	KeyAppStale          Key = "app.stale"
)

// The texts of the Mini App's page (webapp/static/app.js names them by their values; package
// webapp serves them with the page, in every language). The page also shows KeyGamePass and
// KeyGameMoveLost, which it words as the chat does.
const (
	KeyAppTitle        Key = "app.title"
	KeyAppYourMove     Key = "app.your_move"
	KeyAppWaitingFor   Key = "app.waiting_for" // name of the player to move
	KeyAppToMove       Key = "app.to_move"     // name of the player to move
	KeyAppThinking     Key = "app.thinking"
	KeyAppLobby        Key = "app.lobby"
	KeyAppSending      Key = "app.sending"
	KeyAppYou          Key = "app.you"
	KeyAppBot          Key = "app.bot"
	KeyAppBlack        Key = "app.black"
	KeyAppWhite        Key = "app.white"
	KeyAppWatching     Key = "app.watching"
	KeyAppMoveNumber   Key = "app.move_number"  // the number of the move to play
	KeyAppMovesPlayed  Key = "app.moves_played" // moves played (plural)
	KeyAppLastMove     Key = "app.last_move"    // square
	KeyAppDiscs        Key = "app.discs"        // discs (plural)
	KeyAppReconnecting Key = "app.reconnecting"
	KeyAppNoInitData   Key = "app.no_init_data"
	KeyAppFailed       Key = "app.failed"
	KeyAppOffline      Key = "app.offline"
)
