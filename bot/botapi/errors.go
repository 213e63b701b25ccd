package botapi

import (
	"context"
	"errors"
	"strings"

	tgbot "github.com/go-telegram/bot"
)

// Kind classifies a failed Bot API call, for retries, metrics and logs.
type Kind string

// The kinds of failure.
const (
	KindTooManyRequests Kind = "too_many_requests" // 429: wait retry_after
	KindNotModified     Kind = "not_modified"      // an edit that changes nothing
	KindBadRequest      Kind = "bad_request"       // 400
	KindMigrated        Kind = "migrated"          // 400 with migrate_to_chat_id: the group became a supergroup (MigratedTo)
	KindUnauthorized    Kind = "unauthorized"      // 401: a wrong token
	KindForbidden       Kind = "forbidden"         // 403: blocked by the user, kicked from the group
	KindNotFound        Kind = "not_found"         // 404: no such method (or a wrong server URL)
	KindConflict        Kind = "conflict"          // 409: another getUpdates, or a webhook is set
	KindServer          Kind = "server"            // any other reply that is no success: 5xx, a proxy's page, a malformed reply
	KindNetwork         Kind = "network"           // no reply: the request or the connection failed, or was cut off
)

// Error is a failed Bot API call. Its text never shows the bot's token; errors.Is and
// errors.As see the library's error inside (tgbot.ErrorForbidden, *tgbot.TooManyRequestsError, a
// *url.Error, context.Canceled, ...).
type Error struct {
	Method string // the Bot API method
	Status int    // the HTTP status of the reply, 0 when there was none
	Kind   Kind
	err    error
	text   string
}

func (e *Error) Error() string { return e.text }
func (e *Error) Unwrap() error { return e.err }

// KindOf returns the kind of a failed call: the Kind of the *Error in err, else err
// classified as the Client does (a reply's status unknown).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return classify(err, 0)
}

// classify returns the kind of err, the library's error for a call whose reply had the HTTP
// status (0: none).
func classify(err error, status int) Kind {
	var tooMany *tgbot.TooManyRequestsError
	var migrate *tgbot.MigrateError
	switch {
	case errors.As(err, &tooMany):
		return KindTooManyRequests
	case NotModified(err):
		return KindNotModified
	case errors.As(err, &migrate):
		return KindMigrated
	case errors.Is(err, tgbot.ErrorBadRequest):
		return KindBadRequest
	case errors.Is(err, tgbot.ErrorUnauthorized):
		return KindUnauthorized
	case errors.Is(err, tgbot.ErrorForbidden):
		return KindForbidden
	case errors.Is(err, tgbot.ErrorNotFound):
		return KindNotFound
	case errors.Is(err, tgbot.ErrorConflict):
		return KindConflict
	case status == 0, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return KindNetwork
	}
	return KindServer
}

// notModifiedText is how Telegram describes an edit that changes nothing. It is the one
// failure the library gives no type of its own, and Telegram documents it.
const notModifiedText = "message is not modified"

// NotModified reports Telegram's harmless answer to an edit that changes nothing: a 400
// (tgbot.ErrorBadRequest) described as "message is not modified". It is the one error
// recognised by its text.
func NotModified(err error) bool {
	return errors.Is(err, tgbot.ErrorBadRequest) && strings.Contains(err.Error(), notModifiedText)
}

// MigratedTo returns the chat id that a call refused as KindMigrated names in
// parameters.migrate_to_chat_id: the supergroup the call's group became, where the call
// belongs now. It is 0 for any other error.
func MigratedTo(err error) int64 {
	var migrate *tgbot.MigrateError
	if errors.As(err, &migrate) {
		return int64(migrate.MigrateToChatID)
	}
	return 0
}
