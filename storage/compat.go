package storage

import "github.com/reversibot/reversi/game"

// Transitional names for the types that moved to package game, kept only until the importers
// are renamed (rename-game.sh); the next commit removes them.

type (
	Flow       = game.Flow
	Status     = game.Status
	Outcome    = game.Outcome
	EndReason  = game.EndReason
	BoardStyle = game.Style
	Player     = game.Player
	BoardRef   = game.MessageRef
	Game       = game.Game
	AIRecord   = game.AIRecord
	Stats      = game.Stats
	Profile    = game.Profile
	RankEntry  = game.RankEntry
	Waiter     = game.Waiter
	Hosting    = game.Hosting

	BusyError    = game.BusyError
	CorruptError = game.CorruptError
)

const (
	FlowAI     = game.FlowAI
	FlowInvite = game.FlowInvite
	FlowGroup  = game.FlowGroup
	FlowInline = game.FlowInline
	FlowMatch  = game.FlowMatch

	StatusLobby    = game.StatusLobby
	StatusPlaying  = game.StatusPlaying
	StatusFinished = game.StatusFinished

	OutcomeNone  = game.OutcomeNone
	OutcomeBlack = game.OutcomeBlack
	OutcomeWhite = game.OutcomeWhite
	OutcomeDraw  = game.OutcomeDraw

	EndNormal    = game.EndNormal
	EndResign    = game.EndResign
	EndTimeout   = game.EndTimeout
	EndAbandoned = game.EndAbandoned

	StyleButtons = game.StyleButtons
	StyleImage   = game.StyleImage

	InitialRating = game.InitialRating
	EloK          = game.EloK
)

var (
	ErrNotFound    = game.ErrNotFound
	ErrConflict    = game.ErrConflict
	ErrUnavailable = game.ErrUnavailable
	ErrChatBusy    = game.ErrChatBusy
	ErrInvalid     = game.ErrInvalid
)
